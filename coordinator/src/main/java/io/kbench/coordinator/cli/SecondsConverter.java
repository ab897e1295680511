package io.kbench.coordinator.cli;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import picocli.CommandLine;

/**
 * A whole number of seconds as {@code --duration}, {@code --warmup}, {@code --interval} and {@code --dashboard-keep}
 * take it: plain ({@code 90}) or with a unit as {@code --wait} takes it ({@code 90s}, {@code 5m}, {@code 1h}); a
 * leading {@code -} is kept for the options that give it a meaning ({@code --dashboard-keep -1}). Each option checks
 * its own range afterwards, so here only what is not a number of seconds at all is refused.
 */
final class SecondsConverter implements CommandLine.ITypeConverter<Integer> {
    private static final Pattern SECONDS = Pattern.compile("(-?)(\\d+)([smh]?)");

    @Override
    public Integer convert(String text) {
        Long n = seconds(text);
        if (n == null) {
            throw new CommandLine.TypeConversionException("'" + text + "' is not a whole number of seconds: give "
                    + "seconds (90) or a number with s, m or h (90s, 5m, 1h)");
        }
        if (Math.abs(n) > Integer.MAX_VALUE) {
            throw new CommandLine.TypeConversionException("'" + text + "' is too many seconds");
        }
        return n.intValue();
    }

    /**
     * The seconds {@code text} says (plain, or with s, m or h; a leading {@code -} kept), null when it is not a whole
     * number of seconds; a number past any range an option takes is {@code ±Long.MAX_VALUE / 2}, never an overflow.
     * {@code --wait} reads its duration with it too ({@link WorkerWait#parseMillis}).
     */
    static Long seconds(String text) {
        Matcher m = SECONDS.matcher(text.strip());
        if (!m.matches()) {
            return null;
        }
        long unit = switch (m.group(3)) {
            case "m" -> 60;
            case "h" -> 3_600;
            default -> 1;
        };
        long n = m.group(2).length() > 12 ? Long.MAX_VALUE / 2 : Long.parseLong(m.group(2)) * unit;
        return m.group(1).isEmpty() ? n : -n;
    }
}
