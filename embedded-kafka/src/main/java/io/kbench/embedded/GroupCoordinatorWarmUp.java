package io.kbench.embedded;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;

/**
 * Has a new cluster create its consumer offsets topic now, in the background, by looking up a group's coordinator: a
 * broker creates that topic when the first group needs it, and a run's consumers would otherwise wait for it (and for
 * its partitions to load) while the run prepares. Made while the coordinator identifies its workers and the first
 * worker creates the run's topics; a failure is ignored (the consumers then create it, as on any cluster). A daemon
 * thread: it never holds the process.
 */
public final class GroupCoordinatorWarmUp {
    private GroupCoordinatorWarmUp() { }

    /** Starts the look-up on a daemon thread of its own and returns at once. */
    public static void start(EmbeddedKafka kafka) {
        Map<String, Object> props = new HashMap<>(kafka.clientConfig());
        props.put("bootstrap.servers", kafka.bootstrapServers());
        Thread t = new Thread(() -> {
            Admin admin = null;
            try {
                admin = Admin.create(props);
                admin.describeConsumerGroups(List.of("kbench-warm-up")).all().get(10, TimeUnit.SECONDS);
            } catch (Exception ignored) {
                // the run's consumers create the topic themselves
            } finally {
                if (admin != null) {
                    admin.close(Duration.ofSeconds(1));
                }
            }
        }, "kbench-group-coordinator-warm-up");
        t.setDaemon(true);
        t.start();
    }
}
