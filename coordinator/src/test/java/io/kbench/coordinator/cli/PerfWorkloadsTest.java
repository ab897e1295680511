package io.kbench.coordinator.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import io.kbench.coordinator.workload.ConsumerProcessing;
import io.kbench.coordinator.workload.InvalidConfigException;
import io.kbench.coordinator.workload.Messages;
import io.kbench.coordinator.workload.ShareGroups;
import io.kbench.coordinator.workload.Transactions;
import io.kbench.coordinator.workload.Workload;
import org.junit.jupiter.api.Test;

/**
 * The perf commands' workloads come from the workload parser ({@link Workload#of}), as a file's do: the fields they
 * get, field by field, and a value the parser refuses refused here too (so no instance escapes its checks).
 */
class PerfWorkloadsTest {
    @Test
    void consumerPerfReadsExistingTopicsWithOneGroupPerTopic() {
        Workload w = ConsumerPerfCommand.workload("consumer-perf-include", List.of("orders-1", "orders-2"), 3, 70_000);
        // messageSize is the parser's default: a run without producers generates no values
        assertEquals(new Workload("consumer-perf-include", 2, 1, 0, 1, 3, Workload.UNTHROTTLED, 0, 0, 70_000,
                Messages.generated(1024), List.of("orders-1", "orders-2"), true, 0, Transactions.NONE, 0, true,
                Workload.DEFAULT_SATURATION_DELAY_MILLIS, Workload.NO_ERROR_LIMIT, List.of(), true, ShareGroups.NONE,
                ConsumerProcessing.NONE, false), w);
        assertEquals(6, w.consumerCount());
        assertEquals(0, w.producerCount());
    }

    @Test
    void shareConsumerPerfReadsWithOneShareGroupFromTheStartOrTheEnd() {
        Workload w = ShareConsumerPerfCommand.workload("scp", 4, 20_000, false);
        assertEquals(new Workload("share-consumer-perf-scp", 1, 1, 0, 0, 1, Workload.UNTHROTTLED, 0, 0, 20_000,
                Messages.generated(1024), List.of("scp"), true, 0, Transactions.NONE, 0, false,
                Workload.DEFAULT_SATURATION_DELAY_MILLIS, Workload.NO_ERROR_LIMIT, List.of(), true,
                new ShareGroups(1, 4, false, 0, 0, Map.of(ShareConsumerPerfCommand.OFFSET_RESET, "earliest")),
                ConsumerProcessing.NONE, false), w);
        assertEquals("latest", ShareConsumerPerfCommand.workload("scp", 4, 20_000, true).shareGroups().groupConfigs()
                .get(ShareConsumerPerfCommand.OFFSET_RESET));
        assertEquals(0, w.consumerCount());
        assertEquals(4, w.shareConsumerCount());
    }

    @Test
    void aValueTheParserRefusesIsRefusedForACommandToo() {
        // the commands check their options first; the parser is the last word, with the same rules as for a file
        InvalidConfigException e = assertThrows(InvalidConfigException.class,
                () -> ConsumerPerfCommand.workload("consumer-perf-t", List.of("t"), 10_001, 5));
        assertTrue(e.getMessage().contains("consumersPerSubscription") && e.getMessage().contains("1 to 10000"),
                e.getMessage());
        e = assertThrows(InvalidConfigException.class,
                () -> ConsumerPerfCommand.workload("consumer-perf-t", List.of("bad/name"), 1, 5));
        assertTrue(e.getMessage().startsWith("consumer-perf:"), e.getMessage());
        e = assertThrows(InvalidConfigException.class,
                () -> ShareConsumerPerfCommand.workload("scp", 1, 0, false));
        assertTrue(e.getMessage().contains("numRecords"), e.getMessage());
    }

    @Test
    void aLongTopicNameStillMakesAValidWorkloadName() {
        String topic = "t".repeat(249); // the longest topic name Kafka allows
        Workload w = ShareConsumerPerfCommand.workload(topic, 1, 10, false);
        assertEquals(Workload.MAX_NAME, w.name().length());
        assertTrue(w.name().startsWith("share-consumer-perf-ttt"), w.name());
        assertEquals(List.of(topic), w.topicNames(), "the topic itself is kept whole");
        assertEquals("producer-perf-t", Workload.nameFor("producer-perf-", "t"));
    }
}
