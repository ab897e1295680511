package io.kbench.coordinator.workload;

import java.io.IOException;
import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;

import io.kbench.protocol.BoundedFiles;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.events.AliasEvent;
import org.yaml.snakeyaml.events.CollectionEndEvent;
import org.yaml.snakeyaml.events.CollectionStartEvent;
import org.yaml.snakeyaml.events.Event;
import org.yaml.snakeyaml.nodes.Node;

/**
 * Reads a workload or profile file into a YAML node tree, refusing what is not a small, well-formed kbench
 * file with the {@code file:line:column} of the problem and what is wrong in words: a file too large, bytes
 * that are not UTF-8, control characters (NUL ...), nesting deeper than any kbench file needs, too many
 * aliases (the "billion laughs" expansion), and YAML syntax errors.
 *
 * <p>Pure apart from reading the file; thread-safe (no state).
 */
final class YamlText {
    /** Largest workload or profile file read. */
    static final long MAX_BYTES = 1024 * 1024;
    /** Deepest nesting of mappings and lists accepted (kbench files need 3). */
    static final int MAX_DEPTH = 16;
    /** Most aliases ({@code *name}) a file may use. */
    static final int MAX_ALIASES = 100;

    private YamlText() { }

    /**
     * What was read of each file that is not a regular file (a pipe: {@code kbench validate <(envsubst < w.yaml)}),
     * which can be read once: its second reader in this process ({@code validate} tells a profile from a workload,
     * then reads it as one) gets the same text, not an empty one. Keyed by the file itself (its device and inode),
     * not its name: {@code /dev/fd/63} names another pipe in the next command run in the same JVM. At most
     * {@link #READ_ONCE_MAX} pipes of at most 1 MiB each (a longer one: why it was refused).
     */
    private static final java.util.Map<Object, Kept> READ_ONCE = new java.util.concurrent.ConcurrentHashMap<>();
    private static final int READ_ONCE_MAX = 64;

    /**
     * A pipe's outcome ({@code byte[]} text, or the {@link IOException} it was refused with) and when it was last
     * written once read: a named pipe made again under the same name may get the same inode, and is told apart by
     * that time.
     */
    private record Kept(java.nio.file.attribute.FileTime modified, Object outcome) {
        /** True when a pipe last written at {@code now} is the one this was read from. */
        boolean same(java.nio.file.attribute.FileTime now) {
            // a pipe refused as too long was left unread with its writer mid-write: that write ends, and moves the
            // time, after the refusal; the rest of it is still not a file of its own
            return outcome instanceof IOException || modified.equals(now);
        }
    }

    /** The file's root node (null for an empty document). */
    static Node compose(Path path) {
        String file = path.toString();
        byte[] bytes;
        try {
            java.nio.file.attribute.BasicFileAttributes pipe = pipe(path);
            Kept kept = pipe == null ? null : READ_ONCE.get(pipe.fileKey());
            if (kept != null && !kept.same(pipe.lastModifiedTime())) {
                kept = null; // another pipe under the same inode
            }
            if (kept != null && kept.outcome() instanceof IOException failed) {
                throw failed; // more than 1 MiB the first time: the rest is not a file of its own
            } else if (kept != null) {
                bytes = (byte[]) kept.outcome();
            } else {
                try {
                    bytes = BoundedFiles.read(path, MAX_BYTES);
                } catch (IOException e) {
                    keep(path, e);
                    throw e;
                }
                keep(path, bytes);
            }
        } catch (BoundedFiles.TooLargeException e) {
            throw fail(file, 1, 1, e.getMessage() + (e.getMessage().startsWith("is a directory")
                    || e.getMessage().startsWith("an empty path") ? ""
                    : " (kbench reads workload and profile files of at most 1 MiB)"));
        } catch (NoSuchFileException e) {
            throw fail(file, 1, 1, "file not found");
        } catch (IOException e) {
            throw fail(file, 1, 1, "cannot read: " + e.getMessage());
        }
        return compose(file, decode(file, bytes));
    }

    /** Keeps what reading the pipe {@code path} gave (its text, or why it failed); nothing for another file. */
    private static void keep(Path path, Object outcome) {
        java.nio.file.attribute.BasicFileAttributes pipe = pipe(path); // once read: its writer's last write is in its time
        if (pipe != null && (READ_ONCE.size() < READ_ONCE_MAX || READ_ONCE.containsKey(pipe.fileKey()))) {
            READ_ONCE.put(pipe.fileKey(), new Kept(pipe.lastModifiedTime(), outcome));
        }
    }

    /** The attributes of {@code path} when it is neither a regular file nor a directory (a pipe) and has a file key. */
    private static java.nio.file.attribute.BasicFileAttributes pipe(Path path) {
        try {
            java.nio.file.attribute.BasicFileAttributes a = java.nio.file.Files.readAttributes(path,
                    java.nio.file.attribute.BasicFileAttributes.class);
            return a.isOther() && a.fileKey() != null ? a : null;
        } catch (IOException | RuntimeException e) {
            return null; // the read says what is wrong with it
        }
    }

    /** {@code keys} as the YAML text of a file that gives them (block style). */
    static String dump(java.util.Map<String, ?> keys) {
        org.yaml.snakeyaml.DumperOptions options = new org.yaml.snakeyaml.DumperOptions();
        options.setDefaultFlowStyle(org.yaml.snakeyaml.DumperOptions.FlowStyle.BLOCK);
        options.setSplitLines(false); // a long value stays one line, as given
        return new Yaml(options).dump(new java.util.LinkedHashMap<>(keys));
    }

    /** The root node of {@code text}, read as a file named {@code file} would be (null for an empty document). */
    static Node compose(String file, String text) {
        checkCharacters(file, text);
        LoaderOptions options = new LoaderOptions();
        options.setMaxAliasesForCollections(MAX_ALIASES);
        options.setNestingDepthLimit(MAX_DEPTH + 2);
        try {
            checkStructure(file, new Yaml(new SafeConstructor(options)).parse(new StringReader(text)));
            return new Yaml(new SafeConstructor(options)).compose(new StringReader(text));
        } catch (MarkedYAMLException e) {
            Mark m = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
            String what = e.getProblem() != null ? e.getProblem() : e.getMessage();
            throw fail(file, m == null ? 1 : m.getLine() + 1, m == null ? 1 : m.getColumn() + 1, "YAML syntax: " + what);
        } catch (YAMLException e) {
            throw fail(file, 1, 1, "YAML: " + e.getMessage());
        }
    }

    /** The text as UTF-8; the first byte that is not UTF-8 is reported at its line and column. */
    private static String decode(String file, byte[] bytes) {
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer out = CharBuffer.allocate(bytes.length + 1);
        CoderResult r = decoder.decode(in, out, true);
        if (r.isError()) {
            int offset = in.position();
            int line = 1;
            int lineStart = 0;
            for (int i = 0; i < offset; i++) {
                if (bytes[i] == '\n') {
                    line++;
                    lineStart = i + 1;
                }
            }
            int column;
            try {
                column = StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes, lineStart, offset - lineStart))
                        .codePoints().toArray().length + 1;
            } catch (CharacterCodingException impossible) {
                column = offset - lineStart + 1;
            }
            throw fail(file, line, column, String.format("byte 0x%02X is not UTF-8 text; save the file as UTF-8",
                    bytes[offset] & 0xFF));
        }
        decoder.flush(out);
        return out.flip().toString();
    }

    /** Control characters YAML does not allow (NUL, other C0 and C1 controls, U+FFFE/FFFF, lone surrogates). */
    private static void checkCharacters(String file, String text) {
        int line = 1;
        int column = 1;
        for (int i = 0; i < text.length(); ) {
            int c = text.codePointAt(i);
            boolean allowed = c == '\t' || c == '\n' || c == '\r' || c >= 0x20 && c <= 0x7E || c == 0x85
                    || c >= 0xA0 && c <= 0xD7FF || c >= 0xE000 && c <= 0xFFFD || c >= 0x10000 && c <= 0x10FFFF;
            if (!allowed) {
                throw fail(file, line, column, String.format("control character U+%04X%s is not allowed in YAML; remove it",
                        c, c == 0 ? " (NUL)" : ""));
            }
            if (c == '\n') {
                line++;
                column = 1;
            } else {
                column++;
            }
            i += Character.charCount(c);
        }
    }

    /** Nesting depth and alias count, from the parser's events (which carry positions). */
    private static void checkStructure(String file, Iterable<Event> events) {
        int depth = 0;
        int aliases = 0;
        for (Event e : events) {
            if (e instanceof CollectionStartEvent) {
                if (++depth > MAX_DEPTH) {
                    throw at(file, e, "nested more than " + MAX_DEPTH + " levels deep; kbench files need at most 3 "
                            + "(e.g. faults: - {at: 10, ...})");
                }
            } else if (e instanceof CollectionEndEvent) {
                depth--;
            } else if (e instanceof AliasEvent && ++aliases > MAX_ALIASES) {
                throw at(file, e, "more than " + MAX_ALIASES + " aliases (*name); write the values out");
            }
        }
    }

    private static InvalidConfigException at(String file, Event e, String message) {
        Mark m = e.getStartMark();
        return fail(file, m.getLine() + 1, m.getColumn() + 1, message);
    }

    private static InvalidConfigException fail(String file, int line, int column, String message) {
        return new InvalidConfigException(List.of(new ConfigError(file, line, column, message)));
    }
}
