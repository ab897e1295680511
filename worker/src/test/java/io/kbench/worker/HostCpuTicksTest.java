package io.kbench.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class HostCpuTicksTest {
    @Test
    void shouldCountRunningIdleAndStolenTicks() {
        // user nice system idle iowait irq softirq steal guest guest_nice
        HostCpuTicks t = HostCpuTicks.parse("cpu  1496579 175 270335 2022268 5409 0 22274 16795 300 7");
        assertEquals(1496579 + 175 + 270335 + 0 + 22274, t.busy(), "user, nice, system, irq, softirq");
        assertEquals(16795, t.steal());
        assertEquals(t.busy() + 2022268 + 5409 + 16795, t.total(), "guest time is in user time already: not added");
    }

    @Test
    void shouldCountNoStealOnAKernelThatDoesNot() {
        HostCpuTicks t = HostCpuTicks.parse("cpu 10 0 5 100 1 0 2");
        assertEquals(17, t.busy());
        assertEquals(0, t.steal());
        assertEquals(118, t.total());
    }

    @Test
    void shouldRefuseWhatIsNotACpuLine() {
        assertNull(HostCpuTicks.parse(null));
        assertNull(HostCpuTicks.parse(""));
        assertNull(HostCpuTicks.parse("cpu0 1 2 3 4 5 6 7 8"), "one processor's line, not the host's");
        assertNull(HostCpuTicks.parse("cpu  1 2 3"), "too few fields");
        assertNull(HostCpuTicks.parse("cpu  1 2 x 4 5 6 7 8"), "not a number");
        assertNull(HostCpuTicks.parse("cpu  1 2 -3 4 5 6 7 8"), "negative");
        assertNull(HostCpuTicks.parse("cpu  1 2 99999999999999999999 4 5 6 7 8"), "beyond a long");
    }

    @Test
    void shouldReadThisHostWhereItIsLinux() {
        if (!Files.isReadable(Path.of("/proc/stat"))) {
            assertNull(HostCpuTicks.read(), "no /proc/stat: unknown");
            return;
        }
        HostCpuTicks a = HostCpuTicks.read();
        assertNotNull(a);
        assertTrue(a.total() > 0 && a.busy() >= 0 && a.busy() <= a.total() && a.steal() <= a.total(), String.valueOf(a));
    }
}
