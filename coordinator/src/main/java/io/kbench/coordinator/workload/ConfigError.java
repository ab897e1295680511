package io.kbench.coordinator.workload;

/**
 * One problem in a workload or profile file, at a position: printed as
 * {@code file:line:column: message}. Line and column are 1-based; 0 for keys given in code, which have no
 * position ({@link Workload#of}, {@link Profile#of}): printed as {@code source: message}.
 */
public record ConfigError(String file, int line, int column, String message) {
    /** Text from a file longer than this is shown cut (a 5,000-digit number must not make a 5,000-character line). */
    static final int SHOWN_MAX = 120;

    /** {@code text} from the file as a message shows it: cut after {@link #SHOWN_MAX} characters, saying how long. */
    public static String shown(String text) {
        return text == null || text.length() <= SHOWN_MAX ? text
                : text.substring(0, SHOWN_MAX) + "... (" + text.length() + " characters)";
    }

    /** {@code text} from a file or flag as a message quotes it: cut ({@link #shown}), control characters written out. */
    public static String excerpt(String text) {
        return printable(shown(text));
    }

    /** A word (a run without a space) longer than this is cut in a refusal's line, e.g. a flag's value. */
    static final int WORD_MAX = 256;
    private static final java.util.regex.Pattern LONG_WORD = java.util.regex.Pattern.compile("\\S{" + (WORD_MAX + 1) + ",}");

    /**
     * {@code line} with every word longer than {@link #WORD_MAX} cut as {@link #shown} cuts: a refusal that quotes a
     * 5,000-character flag value stays a line a terminal can show. A long path (up to 256 characters) stays whole.
     */
    public static String cutLongWords(String line) {
        if (line == null || line.length() <= WORD_MAX) {
            return line;
        }
        java.util.regex.Matcher m = LONG_WORD.matcher(line);
        StringBuilder b = new StringBuilder();
        while (m.find()) {
            // the punctuation that ends the word stays after the cut ("PATH: why", "'VALUE' is not")
            String word = m.group();
            int end = word.length();
            while (end > word.length() - 3 && ":,;)'\"".indexOf(word.charAt(end - 1)) >= 0) {
                end--;
            }
            m.appendReplacement(b, java.util.regex.Matcher.quoteReplacement(shown(word.substring(0, end))
                    + word.substring(end)));
        }
        m.appendTail(b);
        return b.toString();
    }

    /**
     * {@code text} with its control characters written out (a newline as backslash-n, an escape as backslash-u001b):
     * a file's or a flag's text in a message stays one line and cannot move a terminal's cursor or clear it (an escape
     * sequence in a workload's name).
     */
    public static String printable(String text) {
        if (text == null || text.chars().noneMatch(Character::isISOControl)) {
            return text;
        }
        StringBuilder b = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\n') {
                b.append("\\n");
            } else if (Character.isISOControl(c)) {
                b.append(String.format(java.util.Locale.ROOT, "\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }

    @Override
    public String toString() {
        String f = file == null || file.isBlank() ? "''" : cutLongWords(printable(file)); // an empty path given: say so, not ":1:1:"
        return cutLongWords(printable(line <= 0 ? f + ": " + message : f + ":" + line + ":" + column + ": " + message));
    }

    /** Keys given in code: the same problems, without the positions of the text they were written into. */
    static InvalidConfigException positionless(InvalidConfigException e) {
        return new InvalidConfigException(e.errors().stream().map(c -> new ConfigError(c.file(), 0, 0, c.message()))
                .toList());
    }
}
