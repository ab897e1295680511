package io.kbench.cli;

import java.io.PrintWriter;

import io.kbench.coordinator.UserException;
import io.kbench.coordinator.cli.CompareCommand;
import io.kbench.coordinator.cli.ConsumerPerfCommand;
import io.kbench.coordinator.cli.E2eLatencyCommand;
import io.kbench.coordinator.cli.ExitCodes;
import io.kbench.coordinator.cli.ShareConsumerPerfCommand;
import io.kbench.coordinator.cli.MergeCommand;
import io.kbench.coordinator.cli.ProducerPerfCommand;
import io.kbench.coordinator.cli.ReportCommand;
import io.kbench.coordinator.cli.RunCommand;
import io.kbench.coordinator.cli.ServeCommand;
import io.kbench.coordinator.cli.ValidateCommand;
import io.kbench.coordinator.rpc.WorkerCallException;
import io.kbench.coordinator.workload.ConfigError;
import io.kbench.coordinator.workload.InvalidConfigException;
import io.kbench.protocol.Versions;
import picocli.CommandLine.Command;
import picocli.CommandLine;

/**
 * {@code bin/kbench}: wires the coordinator's commands to the worker, the Kafka driver and the embedded
 * broker. Errors the user can fix print one line each and exit 2 (bad input) or 3 (a broker or worker that did not
 * answer); a bug prints its stack trace and exits 4 ({@link ExitCodes}).
 */
@Command(name = "kbench", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = "Distributed benchmark framework for Apache Kafka.")
public final class Main {
    /** Most lines a refusal prints. */
    static final int MAX_REFUSAL_LINES = 3;

    /** Exit code for bad input. */
    static final int USAGE = ExitCodes.USAGE;

    /**
     * The exit code of an exception a command ended with: a refused input 2, a broker or worker that did not answer
     * 3, a worker that failed while doing what it was asked 1 (the run failed), anything else 4 (a bug).
     */
    static int exitCode(Exception e) {
        if (e instanceof InvalidConfigException) {
            return ExitCodes.USAGE;
        }
        if (e instanceof UserException u) {
            return u.unreachable() ? ExitCodes.UNREACHABLE : ExitCodes.USAGE;
        }
        if (e instanceof WorkerCallException w) {
            return switch (w.kind()) {
                case UNREACHABLE, CLUSTER_UNREACHABLE -> ExitCodes.UNREACHABLE;
                case REFUSED -> ExitCodes.USAGE;
                case FAILED -> ExitCodes.FAILED;
            };
        }
        return ExitCodes.INTERNAL;
    }

    /**
     * What every command has besides its own options: {@code --verbose} and {@code --quiet} (read by {@link Logging}
     * before the command line is parsed, so that the log levels are set before the first logger) and the exit codes
     * in its help.
     */
    private static void commonOptions(CommandLine cmd) {
        CommandLine.Model.CommandSpec spec = cmd.getCommandSpec();
        if (!(spec.userObject() instanceof CommandLine.HelpCommand)) {
            spec.addOption(CommandLine.Model.OptionSpec.builder(Logging.VERBOSE)
                    .description("Log more: kbench's info lines and the Kafka clients' warnings (the embedded cluster's "
                            + "too).").build());
            spec.addOption(CommandLine.Model.OptionSpec.builder(Logging.QUIET)
                    .description("Log errors only, kbench's and the Kafka clients'; progress and results print as "
                            + "usual.").build());
        }
        spec.usageMessage().exitCodeListHeading("%nExit codes:%n").exitCodeList(ExitCodes.help());
        for (CommandLine sub : cmd.getSubcommands().values()) {
            commonOptions(sub);
        }
    }

    public static void main(String[] args) {
        // the container image's JVM starts kbench again when KBENCH_JAVA_OPTS asks for JVM options (no shell there)
        java.util.Optional<Integer> relaunched = ImageLauncher.relaunch(args);
        if (relaunched.isPresent()) {
            System.exit(relaunched.get());
        }
        // the console never holds up a run: stdout and stderr go through bounded buffers (see NonBlockingConsole)
        NonBlockingConsole out = new NonBlockingConsole(new java.io.FileOutputStream(java.io.FileDescriptor.out), "out");
        NonBlockingConsole err = new NonBlockingConsole(new java.io.FileOutputStream(java.io.FileDescriptor.err), "err");
        java.nio.charset.Charset cs = java.nio.charset.Charset.defaultCharset();
        System.setOut(new java.io.PrintStream(out, true, cs));
        System.setErr(new java.io.PrintStream(err, true, cs));
        // on exit (and SIGTERM) the last lines get out, unless the console does not read them for 3 s
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                out.awaitDrained(CONSOLE_EXIT_WAIT_MILLIS);
                err.awaitDrained(CONSOLE_EXIT_WAIT_MILLIS);
            } catch (InterruptedException ignored) {
                Thread.currentThread().interrupt();
            }
        }, "kbench-console-exit"));
        System.exit(execute(args));
    }

    /** How long the JVM's exit waits for a console that does not read its last lines. */
    static final long CONSOLE_EXIT_WAIT_MILLIS = 3_000;

    static int execute(String... args) {
        Logging.configure(args);
        // initialize slf4j here, on one thread: initialized by the embedded broker's and the workers' threads at
        // once (they start together), it prints a three-line "replayed logging calls" warning on the console
        org.slf4j.LoggerFactory.getILoggerFactory();
        return commandLine(args).execute(args);
    }

    /**
     * What was wrong with the command line, in one line: for a word picocli did not know, the first such word and
     * the known name nearest to it (a typo in a command or an option), not every word after it.
     */
    static String problem(CommandLine.ParameterException e) {
        return problem(e, null);
    }

    /**
     * As {@link #problem(CommandLine.ParameterException)}, with the command line given ({@code args}, null: not
     * known): an unknown option that picocli passed over for another complaint — 'kbench merge a b -x c' told that
     * the RESULTs "require at least 2 values, but only 1 were specified: [c]" — is named instead.
     */
    static String problem(CommandLine.ParameterException e, String[] args) {
        if (!(e instanceof CommandLine.UnmatchedArgumentException) && args != null) {
            String unknown = unknownOption(e.getCommandLine(), args);
            if (unknown != null) {
                String near = io.kbench.coordinator.workload.Names.closest(unknown,
                        e.getCommandLine().getCommandSpec().optionsMap().keySet());
                return "unknown option '" + unknown + "'" + (near == null ? "" : "; did you mean " + near + "?");
            }
        }
        if (!(e instanceof CommandLine.UnmatchedArgumentException u) || u.getUnmatched().isEmpty()) {
            // picocli's "positional parameter at index 0..* (SIDE) requires at least 2 values, but only 1 were
            // specified: [a]" (or "but none were specified."), in words
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("positional parameter at index \\S+ \\(([^)]+)\\) "
                    + "requires at least (\\d+) values, but (?:only (\\d+) (?:were|was) specified: \\[(.*)]|none were "
                    + "specified\\.?)").matcher(String.valueOf(e.getMessage()));
            if (m.matches()) {
                return m.group(1) + ": at least " + m.group(2) + " needed, " + (m.group(3) == null ? "none given"
                        : m.group(3) + " given" + (m.group(4).isEmpty() ? "" : " (" + m.group(4) + ")"));
            }
            return e.getMessage();
        }
        String first = u.getUnmatched().get(0);
        boolean command = !first.startsWith("-") && !u.getCommandLine().getSubcommands().isEmpty();
        // the nearest name by edit distance, as a workload file's keys get it (picocli's own suggestions go by shared
        // letter pairs: they miss short typos such as 'rnu' and '--prot', and offer far ones)
        java.util.Collection<String> names = command ? u.getCommandLine().getSubcommands().keySet()
                : u.getCommandLine().getCommandSpec().optionsMap().keySet();
        String near = first.startsWith("-") || command
                ? io.kbench.coordinator.workload.Names.closest(first.replaceAll("=.*", ""), names) : null;
        if (command && names.contains(first)) {
            // a command's name after '--', which ends the options: picocli reads it as an argument
            return "'" + first + "' after '--' is an argument, not a command; give the command first ('kbench " + first
                    + " ...')";
        }
        String what = first.startsWith("-") ? "unknown option '" + first.replaceAll("=.*", "") + "'"
                : command ? "unknown command '" + first + "'" : "unexpected argument '" + first + "'";
        return what + (near == null ? "" : "; did you mean " + near + "?");
    }

    /**
     * The first word of {@code args} after {@code command}'s name that looks like an option (a dash and a letter) but
     * is none of {@code command}'s, skipping the values of its options that take one; null when there is none. Stops
     * at '--'.
     */
    static String unknownOption(CommandLine command, String[] args) {
        java.util.Map<String, CommandLine.Model.OptionSpec> options = command.getCommandSpec().optionsMap();
        String name = command.getCommandName();
        int from = 0;
        while (from < args.length && !args[from].equals(name)) {
            from++;
        }
        for (int i = from + 1; i < args.length; i++) {
            String word = args[i];
            if (word.equals("--")) {
                return null;
            }
            String key = word.replaceAll("=.*", "");
            CommandLine.Model.OptionSpec option = options.get(key);
            if (option != null) {
                if (!word.contains("=") && option.arity().max() > 0 && !option.typeInfo().isBoolean()) {
                    i++; // its value, whatever it looks like ('--dashboard-keep -1')
                }
                continue;
            }
            if (word.matches("--?[A-Za-z].*") && !isClusterOfShortFlags(word, options)) {
                return key;
            }
        }
        return null;
    }

    /** '-qv': short boolean options given together, as picocli takes them. */
    private static boolean isClusterOfShortFlags(String word, java.util.Map<String, CommandLine.Model.OptionSpec> options) {
        if (word.startsWith("--") || word.length() < 3) {
            return false;
        }
        for (char c : word.substring(1).toCharArray()) {
            CommandLine.Model.OptionSpec o = options.get("-" + c);
            if (o == null || !o.typeInfo().isBoolean()) {
                return false;
            }
        }
        return true;
    }

    /** kbench's command line with every subcommand, ready to parse or execute (nothing is started by building it). */
    static CommandLine commandLine() {
        return commandLine(null);
    }

    /** The subcommands, in the order the help lists them; each made when asked for. */
    private static java.util.Map<String, java.util.function.Supplier<Object>> subcommands() {
        java.util.Map<String, java.util.function.Supplier<Object>> all = new java.util.LinkedHashMap<>();
        all.put("run", () -> new RunCommand(new InProcessEnvironment()));
        all.put("worker", WorkerCommand::new);
        all.put("validate", () -> new ValidateCommand(InProcessEnvironment.CONFIG_CHECK));
        all.put("merge", MergeCommand::new);
        all.put("report", ReportCommand::new);
        all.put("serve", ServeCommand::new);
        all.put("compare", CompareCommand::new);
        all.put("producer-perf", () -> new ProducerPerfCommand(new InProcessEnvironment()));
        all.put("consumer-perf", () -> new ConsumerPerfCommand(new InProcessEnvironment()));
        all.put("share-consumer-perf", () -> new ShareConsumerPerfCommand(new InProcessEnvironment()));
        all.put("e2e-latency", () -> new E2eLatencyCommand(new InProcessEnvironment()));
        all.put("broker", BrokerCommand::new);
        all.put("completion", CompletionCommand::new);
        all.put("help", CommandLine.HelpCommand::new);
        return all;
    }

    /**
     * kbench's command line for {@code args}: with only the subcommand {@code args} starts with when it names one (a
     * command line picocli then reads exactly as the whole one), else with every subcommand (the top-level help,
     * {@code help}, {@code completion}, an unknown command and its nearest name). Picocli reads every option of every
     * command it is given by reflection as it builds them: about 0.1 s of CPU on the main thread at every start,
     * before anything else runs, for thirteen commands that were not asked for.
     */
    static CommandLine commandLine(String[] args) {
        CommandLine cli = new CommandLine(new Main());
        java.util.Map<String, java.util.function.Supplier<Object>> all = subcommands();
        String only = args != null && args.length > 0 && all.containsKey(args[0]) && !args[0].equals("help")
                && !args[0].equals("completion") ? args[0] : null;
        all.forEach((name, command) -> {
            if (only == null || only.equals(name)) {
                cli.addSubcommand(name, command.get());
            }
        });
        cli.setParameterExceptionHandler((e, a) -> {
            PrintWriter err = e.getCommandLine().getErr();
            err.println("kbench: " + ConfigError.cutLongWords(ConfigError.printable(problem(e, a))) + " (see '"
                    + e.getCommandLine().getCommandSpec().qualifiedName() + " --help')");
            return USAGE;
        });
        cli.setExecutionExceptionHandler((e, cmd, parsed) -> {
            PrintWriter err = cmd.getErr();
            if (e instanceof InvalidConfigException ic) {
                // a refusal stays short: the first problems, then how many more and where they are all listed
                java.util.List<ConfigError> errors = ic.errors();
                int shown = errors.size() <= MAX_REFUSAL_LINES ? errors.size() : MAX_REFUSAL_LINES - 1;
                for (ConfigError c : errors.subList(0, shown)) {
                    err.println(c);
                }
                if (shown < errors.size()) {
                    java.util.Set<String> files = new java.util.LinkedHashSet<>();
                    errors.forEach(c -> files.add(c.file()));
                    err.println("kbench: " + (errors.size() - shown) + " more problem(s); 'kbench validate "
                            + ConfigError.printable(String.join(" ", files)) + "' lists them all");
                }
                return USAGE;
            }
            int code = exitCode(e);
            if (code == ExitCodes.INTERNAL) {
                err.println("kbench: internal error: " + e);
                e.printStackTrace(err);
            } else {
                // a flag's or file's text: one line, a very long value cut
                err.println("kbench: " + ConfigError.cutLongWords(ConfigError.printable(e.getMessage())));
            }
            return code;
        });
        for (CommandLine sub : cli.getSubcommands().values()) {
            commonOptions(sub);
        }
        cli.getCommandSpec().usageMessage().exitCodeListHeading("%nExit codes:%n").exitCodeList(ExitCodes.help());
        return cli;
    }

    /** Prints kbench's version. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String commit = Versions.commit();
            return new String[] {"kbench " + Versions.kbench() + " (" + (commit.isEmpty() ? "" : "commit " + commit + ", ")
                    + "protocol " + Versions.PROTOCOL + ")"};
        }
    }
}
