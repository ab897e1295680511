package io.kbench.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;

import javax.management.ObjectName;

import org.junit.jupiter.api.Test;

/**
 * A JMX source over RMI has the JVM compile the RMI client with C1 alone: the directive is one HotSpot parses, it
 * lands in this JVM's directives once however many sources open, and it names only the RMI client's classes.
 */
class JmxRmiCompilationTest {
    @Test
    void theJvmTakesTheDirectiveOnceAndItExcludesOnlyTheRmiClientFromC2() throws Exception {
        String first = JmxBrokerSource.compileRmiWithC1Only();
        // another test of this JVM may have opened a remote source first
        assertTrue(first.equals("1 compiler directives added") || first.equals("added before"), first);
        assertEquals("added before", JmxBrokerSource.compileRmiWithC1Only());

        String printed = (String) ManagementFactory.getPlatformMBeanServer().invoke(
                new ObjectName("com.sun.management:type=DiagnosticCommand"), "compilerDirectivesPrint",
                new Object[] {new String[0]}, new String[] {String[].class.getName()});
        String ours = printed.substring(0, printed.indexOf("Directive: (default)"));
        assertEquals(1, ours.split("Directive:", -1).length - 1, "one directive besides the default: " + printed);
        assertTrue(ours.contains("matching: com/sun/jmx/remote/*.*, javax/management/remote/*.*, sun/rmi/*.*, "
                + "java/rmi/*.*, java/io/Object*.*"), ours);
        String c2 = ours.substring(ours.indexOf("c2 directives:"));
        assertTrue(c2.contains("Exclude:true"), c2);
        String c1 = ours.substring(ours.indexOf("c1 directives:"), ours.indexOf("c2 directives:"));
        assertTrue(c1.contains("Exclude:false"), "C1 still compiles them: " + c1);
    }
}
