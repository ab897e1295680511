package io.kbench.coordinator.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import io.kbench.coordinator.UserException;
import io.kbench.coordinator.capacity.MaxRateSearch;
import io.kbench.coordinator.capacity.Slo;
import io.kbench.coordinator.dashboard.DashboardServer;
import io.kbench.coordinator.dashboard.DashboardState;
import io.kbench.coordinator.report.console.JsonLinesReporter;
import io.kbench.coordinator.report.files.OutputDirectory;
import io.kbench.coordinator.report.console.ProgressPrinter;
import io.kbench.coordinator.rpc.ClientSecurity;
import io.kbench.coordinator.run.FaultInjector;
import io.kbench.coordinator.run.RunIds;
import io.kbench.coordinator.workload.Profile;
import io.kbench.coordinator.workload.Sweep;
import io.kbench.coordinator.workload.Workload;
import io.kbench.coordinator.run.RunOptions;
import io.kbench.coordinator.run.RunOutcome;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code kbench run}: the coordinator. */
@Command(name = "run", sortOptions = false, mixinStandardHelpOptions = true,
        description = {"Runs a workload or a sweep across workers.",
            "",
            "Splits the workload's producers, consumers and rate across the workers, starts them at one instant, merges their histograms every interval and writes result.json.",
            "",
            "With no --workers, workers run in this process (over gRPC's in-process transport). With no bootstrap servers (neither --bootstrap-servers nor bootstrap.servers in the profile), an embedded Kafka cluster (KRaft; one node, or --brokers N) is started on loopback for the run and removed afterwards.",
            "",
            "A workload with a 'matrix' is a sweep: every combination runs in turn (fresh topics each), each writes its result.json under the output directory, and a comparison table ends the run (sweep.csv, sweep.json).",
            "",
            "Workers given with --workers are reached with the cluster token (--token-file or $KBENCH_TOKEN) and, with --tls, over TLS. If a worker is lost during the run (killed, host or network down), the others are stopped within seconds and result.json keeps what was gathered, with status FAILED and the lost worker named."})
public final class RunCommand implements Callable<Integer> {
    /**
     * How long a sweep runs its first combination unmeasured first, by default: at 50 MB/s on 2 shared cores a cold
     * kbench JVM took about 30 s to reach its rate (docs/capacity.md), and a sweep's first row was its worst.
     */
    static final int DEFAULT_PRIME_SECONDS = 30;
    private final LocalEnvironment local;

    @Parameters(index = "0", arity = "0..1", paramLabel = "WORKLOAD",
            description = "Workload file (YAML), e.g. workloads/quickstart.yaml (or --repeat instead); an OpenMessaging Benchmark workload file is read as it is, each translated key noted on stderr.")
    Path workloadFile;

    @Option(names = "--repeat", paramLabel = "RESULT.json",
            description = "Run again what a result recorded: its resolved workload and profile (secrets excepted: give them again with --command-config or --set), its reporting interval, its cluster (an embedded one of the same size is started again) and the broker settings its run was made with (a sweep combination's broker.* keys: run again as a sweep of that one combination, the settings applied and put back as a sweep does). Flags given now apply on top: --bootstrap-servers, --set, --workers, --driver (replaces the recorded profile).")
    Path repeat;

    @Mixin
    WorkerListOptions workerList = new WorkerListOptions();

    @Option(names = "--driver", paramLabel = "PROFILE",
            description = "Driver profile (YAML) with client tuning and cluster, e.g. deployment/kafka/throughput.yaml; an OpenMessaging Benchmark Kafka driver file is read as it is.")
    Path driverFile;

    @Option(names = {"--bootstrap-servers", "--bootstrap-server"}, paramLabel = "HOSTS",
            description = "Kafka cluster to use; overrides bootstrap.servers of the profile.")
    String bootstrapServers;

    @Mixin
    BrokerSourceOptions brokerOptions = new BrokerSourceOptions();

    /** The brokers' metrics sources, checked. */
    private List<String> brokerSources = List.of();

    @Option(names = "--output", paramLabel = "DIR",
            description = "Directory for result.json (default: results/<workload>-<run id>); for a sweep, the directory of its runs and table.")
    Path output;

    @Option(names = "--local-workers", paramLabel = "N", defaultValue = "1",
            description = "In-process workers to start when --workers is not given (default: ${DEFAULT-VALUE}).")
    int localWorkers;

    @Option(names = "--brokers", paramLabel = "N", defaultValue = "1",
            description = "Nodes of the embedded cluster started when no cluster is given, 1 to 9 (default: ${DEFAULT-VALUE}); a workload's faults stop and start them.")
    int brokers;

    @Option(names = "--broker-processes",
            description = "Run each node of the embedded cluster in a JVM of its own (a 1 GB heap each, as kafka-server-start.sh gives) instead of in this one: each broker is then a broker source of its own, with its own figures, CPU and heap, and the workers' process holds no broker; it costs each node a JVM: on 2 cores a 3-node cluster took 2-3 s longer to start, and at 5,000 msg/s with acks=all it used the whole host where one JVM left a quarter idle (docs/metrics.md).")
    boolean brokerProcesses;

    @Mixin
    WorkerConnectionOptions connection = new WorkerConnectionOptions();

    @Option(names = "--duration", paramLabel = "SECONDS", converter = SecondsConverter.class,
            description = "Measured time, in place of the workload's durationSeconds (or an OMB file's testDurationMinutes): seconds (60) or with a unit (90s, 5m, 1h), 1 s to 7 days.")
    Integer duration;

    @Option(names = "--warmup", paramLabel = "SECONDS", converter = SecondsConverter.class,
            description = "Warm-up time, in place of the workload's warmupSeconds (or an OMB file's warmupDurationMinutes): seconds (10) or with a unit (30s, 2m), 0 to 24 h.")
    Integer warmup;

    @Option(names = "--interval", paramLabel = "SECONDS", defaultValue = "1", converter = SecondsConverter.class,
            description = "Reporting interval, 1 to 60 seconds (default: ${DEFAULT-VALUE}; 5s and 1m are taken too); warm-up and duration must be multiples of it.")
    int intervalSeconds;

    @Option(names = "--prime", paramLabel = "SECONDS", converter = SecondsConverter.class,
            description = "A sweep: before its first combination, run that combination unmeasured for this long, so that its row is not the cold start of the JVMs (the in-process workers and embedded cluster, a new kbench worker); its result goes to 00-priming/, outside the table. Seconds (30) or with a unit (1m), 0 to 3600 (default: 30, and 0 for --repeat; 0: not primed).")
    Integer prime;

    @Option(names = "--dashboard", paramLabel = "[HOST:]PORT",
            description = "Serve a live dashboard of the run (charts redrawn every interval, state, workers' health; /api/run as JSON) on PORT, on loopback unless HOST is given; afterwards it shows the final report (see --dashboard-keep). A sweep or max-rate search shows each combination or trial in turn, titled with which, then its own page.")
    String dashboard;

    @Option(names = "--dashboard-keep", paramLabel = "SECONDS", defaultValue = "-1", converter = SecondsConverter.class,
            description = "How long the dashboard keeps serving the final report after the run: -1 (default) until Ctrl-C, 0 not at all, else seconds (300) or with a unit (5m, 1h).")
    int dashboardKeep;

    /** Shows the runs: the console's (or --json's) reporter, behind the dashboard when one is served. */
    private io.kbench.coordinator.report.RunReporter reporter;

    @Option(names = "--json", description = "Print each interval as one JSON line on stdout (NDJSON; the objects result.json lists under 'intervals'); everything else goes to stderr.")
    boolean json;

    @Mixin
    MaxRateSearchOptions searchOptions = new MaxRateSearchOptions();

    @Option(names = "--keep-topics", description = "Leave the run's topics on the cluster afterwards.")
    boolean keepTopics;

    @Option(names = "--set", paramLabel = "KEY=VALUE",
            description = {"Override a profile key, repeatable (each key once): producer.acks=all, consumer.fetch.min.bytes=1024,",
                "topic.min.insync.replicas=2, replicationFactor=3, bootstrap.servers=b1:9092."})
    List<String> set = new ArrayList<>();

    @Option(names = "--network-gbps", paramLabel = "GBPS",
            description = {"Each broker's network link, Gbit/s each way (or networkGbps in the profile): the summary "
                    + "says how close the run came to the most those links let producers write (docs/tuning.md).",
                "With a sweep, each combination's share of it is a column."})
    String networkGbps;

    @Option(names = {"--command-config", "--command.config"}, paramLabel = "FILE",
            description = "Kafka client .properties file for every client kbench builds (admin, producers, consumers): "
                    + "security settings and credentials belong here. Applied over the profile's common map.")
    Path commandConfig;

    @Option(names = {"--producer-config", "--producer.config"}, paramLabel = "FILE",
            description = "Kafka producer .properties file, applied over the profile's producer map (bootstrap.servers in it sets the cluster).")
    Path producerConfig;

    @Option(names = {"--consumer-config", "--consumer.config"}, paramLabel = "FILE",
            description = "Kafka consumer .properties file, applied over the profile's consumer map.")
    Path consumerConfig;

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    public RunCommand(LocalEnvironment local) {
        this.local = local;
    }

    @Override
    public Integer call() {
        if ((workloadFile == null) == (repeat == null)) {
            throw new UserException(repeat == null ? "give a WORKLOAD file, or --repeat and a run's result.json"
                    : "give a WORKLOAD file or --repeat, not both");
        }
        Repeat.Inputs again = repeat == null ? null : Repeat.load(repeat);
        // a result's combination was checked when it ran; a file's matrix is held against Kafka's configs here
        Sweep sweep = again != null ? again.workload() : Sweep.load(workloadFile, local.configCheck());
        // an OMB workload's translated keys, once each: said once everything is checked, never before a refusal
        List<String> notes = new ArrayList<>(sweep.notes());
        if (duration != null && (duration < 1 || duration > 604_800)) {
            throw new UserException("--duration must be 1 to 604800 seconds, got " + duration);
        }
        if (warmup != null && (warmup < 0 || warmup > 86_400)) {
            throw new UserException("--warmup must be 0 to 86400 seconds, got " + warmup);
        }
        try {
            sweep = sweep.withTiming(warmup, duration);
        } catch (IllegalArgumentException e) {
            throw new UserException(e.getMessage());
        }
        if (sweep.findMaxRate() && !searchOptions.findMaxRate) {
            searchOptions.findMaxRate = true;
            System.err.println("the workload asks for the max-rate search (OMB's producerRate: 0): running --find-max-rate");
        }
        Path source = again != null ? again.file() : workloadFile;
        Workload workload = sweep.base();
        Profile profile = driverFile != null ? Profile.load(driverFile, notes::add, local.configCheck())
                : again != null ? again.profile() : Profile.defaults();
        ClientOverrides given = overrides(); // the flags' files read once: applied here, their topic keys checked below
        for (String key : given.keys()) {
            // each combination's own value would replace the flag's without a word: the sweep would not run what was asked
            if (sweep.axes().contains(key)) {
                String first = sweep.points().get(0).values().get(key);
                throw new UserException(given.source(key) + " " + key + ": the workload's matrix varies this key ("
                        + sweep.positions().getOrDefault(key + "=" + first, String.valueOf(source)) + "), and each "
                        + "combination's value would replace it; give the value there, or remove the key from the matrix");
            }
        }
        profile = given.applyTo(profile, local.configCheck(), notes::add);
        if (networkGbps != null) {
            String bad = io.kbench.coordinator.capacity.NetworkCeiling.problem(networkGbps);
            if (bad != null) {
                throw new UserException("--network-gbps " + bad);
            }
            profile = profile.with(java.util.Map.of("networkGbps", networkGbps));
        }
        if (again != null) {
            List<String> secret = Repeat.redacted(profile);
            if (!secret.isEmpty()) {
                throw new UserException(again.file() + ": the result redacted " + String.join(", ", secret)
                        + "; give " + (secret.size() == 1 ? "it" : "them") + " again with --command-config FILE or --set KEY=VALUE"
                        + " (or the whole profile with --driver)");
            }
            if (again.intervalSeconds() > 0 && !matched("--interval")) {
                intervalSeconds = again.intervalSeconds();
            }
            if (again.embeddedBrokers() > 0 && !matched("--brokers")) {
                brokers = again.embeddedBrokers();
            }
            if (again.embeddedBrokerProcesses() && !matched("--broker-processes") && bootstrapServers == null) {
                brokerProcesses = true;
            }
            // the run id is the result file's text: written out, as every file's text on the console
            human().println(io.kbench.coordinator.workload.ConfigError.cutLongWords(io.kbench.coordinator.workload
                    .ConfigError.printable("repeating run " + again.runId() + " of " + again.file() + ": workload "
                    + workload.name() + ", profile " + profile.name() + (profile.bootstrapServers() != null
                    && bootstrapServers == null ? ", cluster " + profile.bootstrapServers() : "") + ", interval "
                    + intervalSeconds + " s")));
        }
        if (intervalSeconds < 1 || intervalSeconds > 60) {
            throw new UserException("--interval must be 1 to 60 seconds, got " + intervalSeconds);
        }
        if (prime != null && !sweep.isSweep()) {
            throw new UserException("--prime applies to a sweep (a workload with a matrix); this workload has none");
        }
        if (prime != null && (prime < 0 || prime > 3_600)) {
            throw new UserException("--prime must be 0 to 3600 seconds, got " + prime);
        }
        // --repeat of a sweep's combination runs as a sweep of one (for its broker settings), but repeats a run: it
        // primes only when asked; the priming run is timed in whole reporting intervals, like any run
        int primeAsked = prime != null ? prime : again != null ? 0 : DEFAULT_PRIME_SECONDS;
        int primeSeconds = (primeAsked + intervalSeconds - 1) / intervalSeconds * intervalSeconds;
        for (Sweep.Point p : sweep.points()) {
            Workload w = p.workload();
            if (w.warmupSeconds() % intervalSeconds != 0 || w.durationSeconds() % intervalSeconds != 0) {
                // durationSeconds is 0 for a record-count run: that is a multiple of anything
                throw new UserException("warmupSeconds (" + w.warmupSeconds() + ") and durationSeconds ("
                        + w.durationSeconds() + ") must be multiples of --interval " + intervalSeconds);
            }
            try {
                profile.with(p.profileOverrides());
            } catch (IllegalArgumentException e) {
                throw new UserException(source + ": matrix: " + e.getMessage());
            }
        }
        // values each Kafka takes may not go together (idempotence with more than 5 requests in flight): found now,
        // not by the workers once the cluster is up — or, in a sweep, after the combinations before ran
        String settingsFrom = (driverFile != null ? driverFile.toString() : again != null ? again.file().toString()
                : "Kafka's client defaults") + (given.keys().isEmpty() ? "" : " with " + String.join(", ",
                new java.util.TreeSet<>(given.keys().stream().map(given::source).toList())));
        String together = sweep.settingsProblem(profile, local.configCheck(), settingsFrom);
        if (together != null) {
            throw new UserException(together);
        }
        Inputs.bootstrap("--bootstrap-servers", bootstrapServers);
        List<String> workers = workerList.resolve(human());
        String bootstrap = bootstrapServers != null ? bootstrapServers : profile.bootstrapServers();
        for (Sweep.Point p : sweep.points()) {
            // faults act on the embedded cluster only: refused before it (or anything else) is started
            FaultInjector.check(p.workload(), bootstrap == null && workers.isEmpty() ? brokers : 0);
        }
        if (bootstrap == null && workers.isEmpty()) {
            String profileSource = driverFile != null ? driverFile.toString()
                    : again != null ? again.file().toString() : "the profile";
            embeddedTopicConfigs(profile, given, sweep, source, profileSource);
            embeddedSecurityProtocol(profile, given, sweep, source, profileSource);
        }
        brokerSources = brokerOptions.check(bootstrap == null && workers.isEmpty());
        if (brokerProcesses && bootstrap != null) {
            throw new UserException("--broker-processes runs the embedded cluster's nodes in JVMs of their own; it cannot "
                    + "be used with a cluster given by --bootstrap-servers or bootstrap.servers");
        }
        String[] dash = dashboard == null ? null : dashboardAddress(dashboard);
        if (dashboard == null && matched("--dashboard-keep")) {
            throw new UserException("--dashboard-keep applies only with --dashboard (how long the dashboard serves the "
                    + "final report)");
        }
        if (dashboardKeep < -1) {
            throw new UserException("--dashboard-keep must be -1 (until Ctrl-C), 0 or a number of seconds, got " + dashboardKeep);
        }
        List<Slo> objectives = searchOptions.check(sweep, this::matched);
        connection.checkTransport(workers);
        ClientSecurity security = connection.securityFor(workers);
        // results are never lost to a directory found unwritable at the end; each run makes its own when it starts
        OutputDirectory.check(output != null ? output : Path.of("results"), output != null ? "--output" : "results directory");
        if (output != null && sweep.isSweep() && !searchOptions.findMaxRate) {
            // each combination's directory too: none may be refused halfway through the sweep
            for (Path d : SweepRun.directories(sweep, output, primeSeconds)) {
                OutputDirectory.check(d, "--output");
            }
        }
        if (output != null && searchOptions.findMaxRate) {
            OutputDirectory.checkNoRuns(output, "--output");
        }
        // said with the run's own lines once the cluster is up, not before a refusal or an unreachable cluster's line
        List<String> runNotes = new ArrayList<>();
        if (again == null) {
            // a repeat runs what its result recorded: that result's own consumers' buffer (-1 since it is set here)
            profile = LoopbackSockets.apply(profile, sweep, bootstrap, bootstrap == null && workers.isEmpty(), runNotes::add);
        }
        runNotes.addAll(io.kbench.coordinator.workload.ShareGroups.consumerNotes(workload, profile.consumer()));
        notes.forEach(Inputs::note);
        reporter = json ? new JsonLinesReporter(System.out, System.err, workload.verification(),
                workload.shareGroups().any()) : new ProgressPrinter(System.out);
        // the embedded cluster takes any broker setting: checked now, and it starts with the first combination's
        java.util.Map<String, String> embeddedBrokerSettings = java.util.Map.of();
        if (bootstrap == null && workers.isEmpty() && !sweep.brokerAxes().isEmpty()) {
            EmbeddedBrokerSettings.check(sweep.points(), local::brokerConfigProblem);
            embeddedBrokerSettings = sweep.points().get(0).brokerSettings();
        }
        DashboardServer server = null;
        DashboardState state = null;
        if (dash != null) {
            state = new DashboardState(reporter);
            reporter = state;
            server = DashboardServer.start(dash[0], Integer.parseInt(dash[1]), state);
            human().println("dashboard: http://" + (dash[0].contains(":") ? "[" + dash[0] + "]" : dash[0]) + ":"
                    + server.port() + "/");
        }
        try {
            int code;
            local.processPerBroker(brokerProcesses);
            try (Session session = new Session(local, workers, bootstrap, localWorkers, security, brokers,
                    embeddedBrokerSettings, human())) {
                Profile resolved = profile.withBootstrapServers(session.bootstrap());
                if (sweep.isSweep() && !searchOptions.findMaxRate) {
                    session.checkHeaps(sweep.points(), resolved);
                }
                runNotes.forEach(n -> human().println("note: " + n));
                code = searchOptions.findMaxRate ? searchMaxRate(workload, objectives, resolved, session, state)
                        : sweep.isSweep() ? new SweepRun(sweep, output, human(), written, primeSeconds).dashboard(state).run(
                                (p, dir) -> runOne(p.workload(), resolved.with(p.profileOverrides()), p.brokerSettings(),
                                        dir, session),
                                session::interrupted, brokerSettings(sweep, resolved, session, embeddedBrokerSettings))
                        : runOne(workload, resolved, java.util.Map.of(), output, session).completed() ? 0 : 1;
            }
            if (!written.complete()) {
                // the figures were gathered but not all of them reached the disk: never an exit 0
                System.err.println("kbench: " + written.problem());
                code = 1;
            }
            if (server != null && dashboardKeep != 0) {
                human().println("dashboard: serving the final report " + (dashboardKeep < 0 ? "until Ctrl-C"
                        : "for " + dashboardKeep + " s"));
                try {
                    Thread.sleep(dashboardKeep < 0 ? Long.MAX_VALUE : dashboardKeep * 1000L);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return code;
        } finally {
            if (server != null) {
                server.close();
            }
        }
    }

    private int searchMaxRate(Workload workload, List<Slo> objectives, Profile profile, Session session,
                              DashboardState dashboard) {
        Path base = output != null ? output : RunIds.defaultOutput(workload.name() + "-maxrate", RunIds.next());
        MaxRateSearch search = new MaxRateSearch(workload, objectives, searchOptions.precision(), searchOptions.maxTrials, base, human(),
                new MaxRateSearch.Trials() {
                    private int trial;

                    @Override
                    public RunOutcome run(Workload w, Path dir) {
                        trial++;
                        if (dashboard != null) {
                            dashboard.context(w.producerRate() < 0
                                    ? "max-rate search: trial " + trial + ", an unthrottled probe"
                                    : String.format(java.util.Locale.ROOT, "max-rate search: trial %d at %,d msg/s", trial,
                                    w.producerRate()));
                        }
                        return runOne(w, profile, java.util.Map.of(), dir, session);
                    }

                    @Override
                    public boolean interrupted() {
                        return session.interrupted();
                    }
                });
        boolean existed = java.nio.file.Files.isDirectory(base);
        MaxRateSearch.Found found;
        try {
            found = search.run();
        } catch (UserException e) {
            if (!existed) {
                // its first trial refused before anything started: no empty directory left behind, as a run leaves none
                io.kbench.coordinator.report.files.OutputDirectory.removeIfEmpty(base);
            }
            throw e;
        }
        written.addAll(search.written(), "");
        String[] page = search.page();
        if (dashboard != null && page != null) {
            dashboard.whole(page[0], page[1], "max-rate search: " + (found.found() ? "done" : "no sustainable rate found"));
        }
        return found.found() ? 0 : 1;
    }

    /**
     * The sweep's broker settings, checked before any load (null when the matrix varies none): on the embedded
     * cluster by starting it again per combination, on a given one as cluster-wide dynamic configs set through the
     * session's first worker.
     */
    private BrokerSettings brokerSettings(Sweep sweep, Profile profile, Session session, java.util.Map<String, String> started) {
        if (sweep.brokerAxes().isEmpty()) {
            return null;
        }
        BrokerSettings b = session.embedded()
                ? new EmbeddedBrokerSettings(new EmbeddedBrokerSettings.Cluster() {
                    @Override
                    public void restart(java.util.Map<String, String> brokerConfigs) {
                        session.restartEmbedded(brokerConfigs);
                    }

                    @Override
                    public String problem(String name, String value) {
                        return session.embeddedConfigProblem(name, value);
                    }
                }, started, human())
                : new DynamicBrokerSettings((set, delete, validateOnly) -> session.alterBrokerConfigs(profile, set,
                        delete, validateOnly), human());
        if (!session.embedded()) {
            b.check(sweep.points()); // the embedded cluster's were checked before it started
            if (brokerSources.isEmpty()) {
                // varying the brokers without reading them: what limited each row cannot be told from the clients
                human().println("note: the matrix varies broker settings (" + String.join(", ", sweep.brokerAxes())
                        + ") but no broker figures are read: give --broker-jmx or --broker-metrics to see what they "
                        + "change at the brokers; without them a broker limit looks like the clients' (docs/diagnosis.md)");
            }
        }
        return b;
    }

    /** {@code [HOST:]PORT} of --dashboard: host (loopback by default) and port. */
    private static String[] dashboardAddress(String value) {
        String address = value.matches("\\d{1,5}") ? "127.0.0.1:" + value : value;
        String problem = io.kbench.coordinator.workload.Addresses.problem(address);
        if (problem != null) {
            throw new UserException("--dashboard: " + problem);
        }
        int colon = address.lastIndexOf(':');
        String host = address.substring(0, colon);
        host = host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
        Inputs.listenAddress("--dashboard", host);
        return new String[] {host, address.substring(colon + 1)};
    }

    private RunOutcome runOne(Workload workload, Profile profile, java.util.Map<String, String> brokerSettings, Path dir,
                              Session session) {
        RunOutcome o = session.run(session.controller(workload, profile,
                new RunOptions(dir, keepTopics, intervalSeconds * 1_000_000L, commandLine())
                        .withBrokerSources(session.embedded() ? session.embeddedBrokerSources() : brokerSources)
                        .withBrokerSettings(brokerSettings), reporter));
        written.addAll(o.written(), dir == null || dir.equals(output) ? "" : dir.getFileName() + "/");
        return o;
    }

    /** True when the option was given on the command line (not its default). */
    private boolean matched(String option) {
        return spec != null && spec.commandLine().getParseResult() != null
                && spec.commandLine().getParseResult().hasMatchedOption(option);
    }

    /** The arguments kbench was started with, for the result's provenance. */
    private List<String> commandLine() {
        return spec == null ? List.of() : Provenances.commandLine(spec);
    }

    /** Every file this command wrote or could not write (runs, sweep tables, the search's result). */
    private final io.kbench.coordinator.report.files.Written written = new io.kbench.coordinator.report.files.Written();

    /** Where lines for people go: stdout, or stderr when stdout carries --json's data. */
    private java.io.PrintStream human() {
        return json ? System.err : System.out;
    }

    private ClientOverrides overrides() {
        return new ClientOverrides()
                .file(commandConfig, "common", "--command-config")
                .file(producerConfig, "producer", "--producer-config")
                .file(consumerConfig, "consumer", "--consumer-config")
                .pairs(set, null, "--set");
    }

    /**
     * A topic config the embedded cluster's brokers — kbench's own Kafka — do not define is refused now: they would
     * refuse it when the topics are created (another cluster may define it: only noted for one, by the profile's check).
     */
    private void embeddedTopicConfigs(Profile profile, ClientOverrides given, Sweep sweep, Path source,
                                      String profileSource) {
        io.kbench.coordinator.workload.ConfigCheck check = local.configCheck();
        java.util.Map<String, String> where = new java.util.LinkedHashMap<>();
        given.keys().stream().filter(k -> k.startsWith("topic."))
                .forEach(k -> where.putIfAbsent(k.substring(6), given.source(k)));
        for (Sweep.Point p : sweep.points()) {
            p.profileOverrides().keySet().stream().filter(k -> k.startsWith("topic."))
                    .forEach(k -> where.putIfAbsent(k.substring(6), source + ": matrix"));
        }
        profile.topic().keySet().forEach(k -> where.putIfAbsent(k, profileSource));
        for (java.util.Map.Entry<String, String> e : where.entrySet()) {
            if (check.undefined("topic", e.getKey())) {
                throw new UserException(e.getValue() + ": topic." + io.kbench.coordinator.workload.ConfigError.shown(e.getKey())
                        + " is not a topic config of the embedded cluster's Kafka, whose brokers would refuse it when "
                        + "creating the topics; remove it, or run against a cluster that defines it (--bootstrap-servers)");
            }
        }
    }

    /**
     * The embedded cluster's listeners are PLAINTEXT: a client told otherwise fails in prepare (a JAAS or TLS error),
     * after the cluster was started for nothing. Refused now, naming where the setting came from.
     */
    private static void embeddedSecurityProtocol(Profile profile, ClientOverrides given, Sweep sweep, Path source,
                                                 String profileSource) {
        Inputs.plaintextForEmbedded(profile, k -> given.keys().contains(k) ? given.source(k) : profileSource);
        for (Sweep.Point p : sweep.points()) {
            Inputs.plaintextForEmbedded(profile.with(p.profileOverrides()), k -> source + ": matrix");
        }
    }
}
