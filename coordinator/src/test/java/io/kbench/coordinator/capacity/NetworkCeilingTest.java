package io.kbench.coordinator.capacity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class NetworkCeilingTest {
    private static final double LINK_10G = 10e9 / 8; // bytes per second each way

    @Test
    void shouldGiveTheFamiliarBrokersTimesLinkOverCopiesWhenPartitionsSpreadEvenly() {
        // 3 brokers, 6 partitions, RF 3, one consumer group: each broker takes RF x 1/3 in, sends (RF-1+1) x 1/3 out
        NetworkCeiling c = new NetworkCeiling(10, 3, 6, 3, 1);
        assertEquals(3 * LINK_10G / 3, c.ceilingBytes(), 1e-6);
        assertEquals("in", c.bound(), "in: 3 copies; out: 2 followers + 1 group = 3: a tie goes to inbound");
        // three consumer groups: out carries 2 + 3 = 5 copies, inbound still 3
        NetworkCeiling groups = new NetworkCeiling(10, 3, 6, 3, 3);
        assertEquals(3 * LINK_10G / 5, groups.ceilingBytes(), 1e-6);
        assertEquals("out", groups.bound());
        assertTrue(groups.reason().contains("leads 2 of the 6 partition(s) and sends each record 5 time(s): 2 follower(s), 3 group(s)"),
                groups.reason());
    }

    @Test
    void shouldLetTheOneLeaderDecideWhenThereIsOnePartition() {
        // the walkthrough's one partition on three brokers, RF 3, a consumer: the leader sends 3 copies of everything
        NetworkCeiling c = new NetworkCeiling(10, 3, 1, 3, 1);
        assertEquals(LINK_10G / 3, c.ceilingBytes(), 1e-6);
        assertEquals("out", c.bound());
        // RF 1, no consumer: only the leader's inbound link carries anything
        NetworkCeiling alone = new NetworkCeiling(10, 3, 1, 1, 0);
        assertEquals(LINK_10G, alone.ceilingBytes(), 1e-6);
        assertEquals(Double.POSITIVE_INFINITY, alone.outboundBytes());
        assertEquals("in", alone.bound());
    }

    @Test
    void shouldChargeTheBusiestBrokerWhenPartitionsDoNotDivideEvenly() {
        // 4 partitions on 3 brokers, RF 1: one broker leads 2 of 4, so takes half of everything in
        NetworkCeiling c = new NetworkCeiling(1, 3, 4, 1, 0);
        assertEquals(1e9 / 8 * 4 / 2, c.ceilingBytes(), 1e-6);
        // 4 partitions, RF 3 on 5 brokers: 12 replicas over 5 brokers, the busiest holds 3 of 4 partitions' copies
        NetworkCeiling r = new NetworkCeiling(1, 5, 4, 3, 0);
        assertEquals(1e9 / 8 * 4 / 3, r.inboundBytes(), 1e-6);
        assertEquals(1e9 / 8 * 4 / (1.0 * 2), r.outboundBytes(), 1e-6, "leads 1 of 4, sends 2 follower copies");
    }

    @Test
    void shouldNotCountMoreReplicasThanBrokers() {
        NetworkCeiling c = new NetworkCeiling(10, 1, 6, 3, 1);
        assertEquals(LINK_10G, c.ceilingBytes(), 1e-6, "one broker: 1 copy in, 1 group out");
    }

    @Test
    void shouldSayWhatTheRunReachedAgainstIt() {
        NetworkCeiling c = new NetworkCeiling(10, 3, 6, 3, 1);
        String line = c.line(11.92 * NetworkCeiling.MB, "the brokers' bytes in", true);
        assertEquals("at 10 Gbit/s per broker (1192 MB/s each way), 3 broker(s), 6 partition(s), RF 3, 1 group(s): "
                + "at most 1192.1 MB/s produced (inbound: the busiest broker takes in 6 replica(s) of the 6 partition(s)); "
                + "this run 11.92 MB/s (the brokers' bytes in) = 1.0% of it (the embedded brokers share this host: no link "
                + "carried it)", line);
    }

    @Test
    void shouldRefuseABandwidthThatIsNone() {
        assertNull(NetworkCeiling.problem("25"));
        assertNull(NetworkCeiling.problem(" 0.1 "));
        assertEquals("must be above 0 and at most 1600 Gbit/s, got '0'", NetworkCeiling.problem("0"));
        assertEquals("must be above 0 and at most 1600 Gbit/s, got '-10'", NetworkCeiling.problem("-10"));
        assertEquals("must be above 0 and at most 1600 Gbit/s, got 'NaN'", NetworkCeiling.problem("NaN"));
        assertEquals("must be above 0 and at most 1600 Gbit/s, got '1e9'", NetworkCeiling.problem("1e9"));
        assertEquals("must be a number of Gbit/s (above 0, at most 1600), got ''", NetworkCeiling.problem(""));
        assertTrue(NetworkCeiling.problem("x".repeat(10_000)).length() < 120, "a huge value is not echoed whole");
        assertThrows(IllegalArgumentException.class, () -> new NetworkCeiling(0, 3, 6, 3, 1));
        assertThrows(IllegalArgumentException.class, () -> new NetworkCeiling(10, 0, 6, 3, 1));
    }
}
