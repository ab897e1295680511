package io.kbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Every command's help renders clean: picocli formats help texts with {@code String.format}, and a text it cannot
 * format (a '%' not written '%%') is printed raw after a "[picocli WARN] Could not format" line on stderr. Stderr
 * is caught while every command's usage is rendered.
 */
class HelpTextTest {
    @CommandLine.Command(name = "broken", description = "50% off")
    static final class Broken implements Runnable {
        @Override
        public void run() { }
    }

    @Test
    void shouldRenderEveryCommandsHelpWithoutAWarning() {
        List<String> rendered = new ArrayList<>();
        String warnings = warningsWhile(() -> render(Main.commandLine(), rendered));
        assertEquals("", warnings, "picocli's warnings while rendering " + rendered);
        assertTrue(rendered.size() >= 10, "every command: " + rendered);
        // the catch works: a text that does not format is caught
        assertTrue(warningsWhile(() -> new CommandLine(new Broken()).getUsageMessage())
                .contains("[picocli WARN] Could not format"), "a broken text is seen");
    }

    private static void render(CommandLine cli, List<String> rendered) {
        cli.getUsageMessage();
        rendered.add(cli.getCommandSpec().qualifiedName());
        cli.getSubcommands().values().forEach(sub -> {
            if (sub != cli && !rendered.contains(sub.getCommandSpec().qualifiedName())) {
                render(sub, rendered);
            }
        });
    }

    /**
     * A command line built for one command (Main.execute builds only the command asked for) holds that command alone,
     * which reads its arguments and prints its help exactly as in the whole command line; the top-level help, 'help'
     * and 'completion' get every command.
     */
    @Test
    void shouldBuildOnlyTheCommandAskedForAndThatOneAsInTheWholeCommandLine() {
        CommandLine whole = Main.commandLine();
        for (java.util.Map.Entry<String, CommandLine> e : whole.getSubcommands().entrySet()) {
            String name = e.getKey();
            CommandLine one = Main.commandLine(new String[] {name, "--help"});
            if (name.equals("help") || name.equals("completion")) {
                assertEquals(whole.getSubcommands().keySet(), one.getSubcommands().keySet(), name);
                continue;
            }
            assertEquals(java.util.Set.of(name), one.getSubcommands().keySet(), name);
            assertEquals(e.getValue().getUsageMessage(CommandLine.Help.Ansi.OFF),
                    one.getSubcommands().get(name).getUsageMessage(CommandLine.Help.Ansi.OFF), name);
        }
        for (String[] args : List.of(new String[0], new String[] {"--help"}, new String[] {"rnu"}, new String[] {"-v", "run"})) {
            assertEquals(whole.getSubcommands().keySet(), Main.commandLine(args).getSubcommands().keySet(), String.join(" ", args));
        }
        assertEquals(whole.getUsageMessage(CommandLine.Help.Ansi.OFF), Main.commandLine(new String[0])
                .getUsageMessage(CommandLine.Help.Ansi.OFF), "the top-level help lists every command");
    }

    /** Every command's help lists the exit codes; every one but 'help' takes --verbose and --quiet. */
    @Test
    void shouldListTheExitCodesAndTheLogOptionsInEveryCommandsHelp() {
        List<String> seen = new ArrayList<>();
        CommandLine root = Main.commandLine();
        List<CommandLine> all = new ArrayList<>(List.of(root));
        all.addAll(root.getSubcommands().values());
        for (CommandLine c : all) {
            String help = c.getUsageMessage(CommandLine.Help.Ansi.OFF);
            String name = c.getCommandSpec().qualifiedName();
            assertTrue(help.contains("Exit codes:") && help.matches("(?s).*\n  3 +unreachable: a Kafka broker or a worker.*")
                    && help.matches("(?s).*\n  4 +internal error.*") && help.matches("(?s).*\n  130 +stopped by Ctrl-C.*"),
                    name + ":\n" + help);
            if (c != root && !name.endsWith(" help")) {
                assertTrue(help.contains("-v, --verbose") && help.contains("-q, --quiet"), name + ":\n" + help);
            }
            // a placeholder says what it takes, in capitals (--port=PORT), not picocli's field name (<port>)
            for (var o : c.getCommandSpec().options()) {
                assertTrue(o.arity().max() == 0 || !o.paramLabel().startsWith("<"), name + " " + o.longestName()
                        + " has the placeholder " + o.paramLabel());
            }
            for (var p : c.getCommandSpec().positionalParameters()) {
                assertTrue(!p.paramLabel().startsWith("<"), name + " has the placeholder " + p.paramLabel());
            }
            seen.add(name);
        }
        assertTrue(seen.size() >= 12, seen.toString());
    }

    /** What picocli printed on stderr while {@code r} ran (its tracer writes its warnings there). */
    private static String warningsWhile(Runnable r) {
        PrintStream err = System.err;
        ByteArrayOutputStream caught = new ByteArrayOutputStream();
        System.setErr(new PrintStream(caught, true, StandardCharsets.UTF_8));
        try {
            r.run();
        } finally {
            System.setErr(err);
        }
        return caught.toString(StandardCharsets.UTF_8);
    }

    /** The cluster flag is --bootstrap-servers on run and --bootstrap-server (Kafka's name) on the tools: both work. */
    @Test
    void shouldTakeBothSpellingsOfTheClusterFlagWhereverOneIsTaken() {
        List<String> with = new ArrayList<>();
        for (CommandLine sub : Main.commandLine().getSubcommands().values()) {
            for (CommandLine.Model.OptionSpec o : sub.getCommandSpec().options()) {
                List<String> names = List.of(o.names());
                if (names.contains("--bootstrap-server") || names.contains("--bootstrap-servers")) {
                    assertTrue(names.contains("--bootstrap-server") && names.contains("--bootstrap-servers"),
                            sub.getCommandName() + " takes " + names);
                    with.add(sub.getCommandName());
                }
            }
        }
        assertTrue(with.containsAll(List.of("run", "producer-perf", "consumer-perf", "share-consumer-perf",
                "e2e-latency")), with.toString());
    }
}
