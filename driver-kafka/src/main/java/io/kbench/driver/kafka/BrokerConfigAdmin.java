package io.kbench.driver.kafka;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.kbench.driver.DriverException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.AlterConfigsOptions;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.config.ConfigResource;

/**
 * Cluster-wide dynamic broker configs for {@link KafkaDriver}: the default every broker inherits (the resource
 * {@code BROKER ""}, what {@code kafka-configs --entity-type brokers --entity-default} changes), read, set or removed
 * with {@code incrementalAlterConfigs}, then read back from every broker until each reports the new values (the
 * controller applies a change on each broker as it reads the metadata log). Stateless; the admin client is passed in.
 */
final class BrokerConfigAdmin {
    private BrokerConfigAdmin() { }

    /** The cluster-wide default's resource. */
    static final ConfigResource CLUSTER_DEFAULT = new ConfigResource(ConfigResource.Type.BROKER, "");
    private static final long POLL_MILLIS = 100;

    /** See {@link io.kbench.driver.Driver#alterBrokerConfigs}. */
    static Map<String, String> alter(Admin admin, Map<String, String> set, List<String> delete, boolean validateOnly,
                                     Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            Map<String, String> previous = clusterDefaults(admin, deadline);
            previous.keySet().retainAll(names(set, delete));
            List<AlterConfigOp> ops = new ArrayList<>();
            set.forEach((k, v) -> ops.add(new AlterConfigOp(new ConfigEntry(k, v), AlterConfigOp.OpType.SET)));
            delete.forEach(k -> ops.add(new AlterConfigOp(new ConfigEntry(k, null), AlterConfigOp.OpType.DELETE)));
            try {
                admin.incrementalAlterConfigs(Map.of(CLUSTER_DEFAULT, ops), new AlterConfigsOptions().validateOnly(validateOnly))
                        .all().get(left(deadline), TimeUnit.NANOSECONDS);
            } catch (ExecutionException e) {
                throw new DriverException("the cluster refused " + describe(set, delete) + ": " + KafkaDriver.rootMessage(e),
                        e, false);
            }
            if (!validateOnly) {
                awaitEveryBroker(admin, set, delete, deadline);
            }
            return previous;
        } catch (TimeoutException e) {
            throw new DriverException("the cluster did not apply " + describe(set, delete) + " on every broker within "
                    + timeout.toSeconds() + " s", e, true);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DriverException("interrupted while changing broker settings", e, false);
        }
    }

    /** The cluster-wide dynamic defaults set now, name to value. */
    private static Map<String, String> clusterDefaults(Admin admin, long deadline)
            throws InterruptedException, TimeoutException {
        Config c = describe(admin, CLUSTER_DEFAULT, deadline);
        Map<String, String> out = new LinkedHashMap<>();
        for (ConfigEntry e : c.entries()) {
            if (e.source() == ConfigEntry.ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG && e.value() != null) {
                out.put(e.name(), e.value());
            }
        }
        return out;
    }

    /** Reads every broker's configs until each reports {@code set} and none has a cluster-wide {@code delete} left. */
    private static void awaitEveryBroker(Admin admin, Map<String, String> set, List<String> delete, long deadline)
            throws InterruptedException, TimeoutException {
        Collection<Node> nodes;
        try {
            nodes = admin.describeCluster().nodes().get(left(deadline), TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            throw new DriverException("cannot list the brokers: " + KafkaDriver.rootMessage(e), e, false);
        }
        for (Node n : nodes) {
            ConfigResource broker = new ConfigResource(ConfigResource.Type.BROKER, n.idString());
            while (!reports(describe(admin, broker, deadline), set, delete)) {
                if (left(deadline) <= POLL_MILLIS * 1_000_000L) {
                    throw new TimeoutException("broker " + n.idString());
                }
                Thread.sleep(POLL_MILLIS);
            }
        }
    }

    private static boolean reports(Config c, Map<String, String> set, List<String> delete) {
        for (Map.Entry<String, String> s : set.entrySet()) {
            ConfigEntry e = c.get(s.getKey());
            if (e == null || !s.getValue().equals(e.value())) {
                return false;
            }
        }
        for (String d : delete) {
            ConfigEntry e = c.get(d);
            if (e != null && e.source() == ConfigEntry.ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG) {
                return false;
            }
        }
        return true;
    }

    private static Config describe(Admin admin, ConfigResource r, long deadline)
            throws InterruptedException, TimeoutException {
        try {
            return admin.describeConfigs(List.of(r)).all().get(left(deadline), TimeUnit.NANOSECONDS).get(r);
        } catch (ExecutionException e) {
            throw new DriverException("cannot read the broker settings" + (r.name().isEmpty() ? "" : " of broker " + r.name())
                    + ": " + KafkaDriver.rootMessage(e), e, false);
        }
    }

    private static java.util.Set<String> names(Map<String, String> set, List<String> delete) {
        java.util.Set<String> all = new java.util.HashSet<>(set.keySet());
        all.addAll(delete);
        return all;
    }

    private static String describe(Map<String, String> set, List<String> delete) {
        List<String> parts = new ArrayList<>();
        set.forEach((k, v) -> parts.add(k + "=" + (v.length() > 100 ? v.substring(0, 100) + "..." : v)));
        delete.forEach(k -> parts.add(k + " (back to each broker's own)"));
        return String.join(", ", parts);
    }

    private static long left(long deadline) {
        return Math.max(1, deadline - System.nanoTime());
    }
}
