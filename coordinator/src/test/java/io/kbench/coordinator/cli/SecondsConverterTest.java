package io.kbench.coordinator.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** --duration, --warmup, --interval and --dashboard-keep: plain seconds or with a unit, the range left to each option. */
class SecondsConverterTest {
    private final SecondsConverter c = new SecondsConverter();

    @Test
    void shouldTakeSecondsPlainOrWithAUnit() {
        assertEquals(90, c.convert("90"));
        assertEquals(90, c.convert("90s"));
        assertEquals(300, c.convert("5m"));
        assertEquals(7_200, c.convert("2h"));
        assertEquals(0, c.convert("0s"));
        assertEquals(-1, c.convert("-1"), "--dashboard-keep's 'until Ctrl-C'; each option checks its own range");
        assertEquals(60, c.convert(" 1m "));
        assertEquals(Integer.MAX_VALUE, c.convert(String.valueOf(Integer.MAX_VALUE)));
    }

    @Test
    void shouldRefuseWhatIsNotAWholeNumberOfSeconds() {
        for (String bad : new String[] {"", " ", "s", "1.5m", "1e3", "5 m", "5M", "10ms", "1d", "--5", "+5", "five"}) {
            CommandLine.TypeConversionException e = assertThrows(CommandLine.TypeConversionException.class,
                    () -> c.convert(bad), bad);
            assertEquals("'" + bad + "' is not a whole number of seconds: give seconds (90) or a number with s, m or h "
                    + "(90s, 5m, 1h)", e.getMessage());
        }
        for (String huge : new String[] {"2147483648", "596524h", "9999999999999999999999"}) {
            assertEquals("'" + huge + "' is too many seconds",
                    assertThrows(CommandLine.TypeConversionException.class, () -> c.convert(huge), huge).getMessage());
        }
    }
}
