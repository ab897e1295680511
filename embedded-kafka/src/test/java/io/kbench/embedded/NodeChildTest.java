package io.kbench.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

/** Which of the kbench JVM's options a broker process of {@code --broker-processes} takes over. */
class NodeChildTest {
    @Test
    void shouldPassOnTheLaunchersStartUpOptionsAndNothingOfThisJvmsOwn() {
        List<String> launcher = List.of("-XX:+UseTransparentHugePages", "-XX:Tier4InvocationThreshold=20000",
                "-XX:Tier4MinInvocationThreshold=2400", "-XX:Tier4CompileThreshold=60000", "-XX:Tier4BackEdgeThreshold=160000",
                "-XX:SharedArchiveFile=/k/kbench.jsa", "-Xlog:cds=off", "-Djava.io.tmpdir=/scratch");
        List<String> own = List.of("-Xmx4g", "-XX:ArchiveClassesAtExit=/tmp/a.jsa", "-agentlib:jdwp=transport=dt_socket",
                "-XX:StartFlightRecording=filename=r.jfr", "-Dkbench.jmx.c1Only=false", "-XX:TieredStopAtLevel=1");
        List<String> all = new java.util.ArrayList<>(own);
        all.addAll(launcher);
        assertEquals(launcher, NodeChild.inherited(all));
        assertEquals(List.of(), NodeChild.inherited(own));
    }
}
