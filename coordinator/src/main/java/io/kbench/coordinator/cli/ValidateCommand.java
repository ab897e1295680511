package io.kbench.coordinator.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import io.kbench.coordinator.workload.ConfigError;
import io.kbench.coordinator.workload.InvalidConfigException;
import io.kbench.coordinator.workload.Profile;
import io.kbench.coordinator.workload.Sweep;
import io.kbench.coordinator.workload.Workload;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code kbench validate}: checks workload and profile files without contacting anything. */
@Command(name = "validate", mixinStandardHelpOptions = true,
        description = {"Checks workload and profile files.",
            "",
            "A file with a profile key (driver, bootstrap.servers, replicationFactor or a property map) is read as a profile, any other as a workload. A profile's (and a matrix's) producer, consumer, admin, common and topic settings are held against Kafka's own client and topic config definitions, as kbench run holds them: a value Kafka would not take, or a name within two edits of one it defines, is a problem; any other unknown name a note (kbench run refuses an unknown topic config on the embedded cluster, whose brokers would). Every problem is printed as file:line:column: message. Exit code 0 when every file is valid, 2 otherwise."})
public final class ValidateCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "FILE", description = "Workload or profile files (YAML).")
    List<Path> files;

    private final io.kbench.coordinator.workload.ConfigCheck configCheck;

    /** Profiles checked for their file's own rules only. */
    public ValidateCommand() {
        this(io.kbench.coordinator.workload.ConfigCheck.NONE);
    }

    /** Profiles' client and topic settings held against Kafka's config definitions too, as {@code kbench run} holds them. */
    public ValidateCommand(io.kbench.coordinator.workload.ConfigCheck configCheck) {
        this.configCheck = configCheck;
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        int invalid = 0;
        for (Path f : files) {
            try {
                out.println(ConfigError.printable("ok: " + f + " (" + describe(f, err, configCheck) + ")"));
            } catch (InvalidConfigException e) {
                invalid++;
                for (ConfigError c : e.errors()) {
                    err.println(c);
                }
            } catch (Refused e) {
                invalid++;
                err.println(e.getMessage());
            }
        }
        out.flush();
        err.flush();
        return invalid == 0 ? 0 : 2;
    }

    private static String describe(Path f, PrintWriter notes, io.kbench.coordinator.workload.ConfigCheck check) {
        if (Profile.looksLikeProfile(f)) {
            Profile p = Profile.load(f, n -> notes.println(ConfigError.printable(n)), check);
            String together = check.together(p);
            if (together != null) {
                throw new Refused(ConfigError.cutLongWords(ConfigError.printable(f.toString())) + ": " + together);
            }
            return "profile " + p.name() + ": " + (p.bootstrapServers() == null ? "no bootstrap.servers" : p.bootstrapServers())
                    + ", replication factor " + p.replicationFactor();
        }
        // a matrix's client and topic settings held against Kafka's configs, as run holds them
        Sweep s = Sweep.load(f, check);
        s.notes().forEach(n -> notes.println(ConfigError.printable(n))); // a file's text, written out
        Workload w = s.base();
        // with Kafka's client defaults, as run takes them without --driver; a profile may make them go together
        // (enable.idempotence false), and run checks them with the one it is given: a warning here, not a refusal
        String together = s.settingsProblem(Profile.defaults(), check, "Kafka's client defaults");
        if (together != null) {
            notes.println(ConfigError.printable("warning: " + together + " — with Kafka's client defaults; kbench run "
                    + "checks the combinations with the profile it is given"));
        }
        w.shareGroups().warnings(w.consumerProcessing()).forEach(x -> notes.println(ConfigError.printable("warning: " + x)));
        if (!w.existingTopics() && w.producerCount() > 0) {
            w.messages().partitionWarnings(w.partitionsPerTopic()).forEach(x -> notes.println(
                    ConfigError.printable("warning: " + x)));
        }
        String amount = w.numRecords() > 0 ? String.format(Locale.ROOT, "%,d records", w.numRecords())
                : w.durationSeconds() + " s";
        String rate = w.producerRate() < 0 ? "unthrottled" : String.format(Locale.ROOT, "%,d msg/s", w.producerRate());
        return "workload " + w.name() + ": " + w.topics() + " topic(s) x " + w.partitionsPerTopic() + " partitions, "
                + w.producerCount() + " producer(s), " + w.consumerCount() + " consumer(s), "
                + (w.shareGroups().any() ? w.shareConsumerCount() + " share consumer(s) in "
                        + w.topics() * w.shareGroups().groupsPerTopic() + " share group(s) ("
                        + (w.shareGroups().explicit() ? "explicit" : "implicit") + " acknowledgement), " : "")
                + rate + ", " + amount
                + (s.isSweep() ? ", sweep of " + s.points().size() + (s.points().size() == 1 ? " combination" : " combinations")
                        + " of " + axes(s) : "");
    }

    /** Most characters of the matrix's keys and values a validate line shows. */
    static final int AXES_MAX = 200;

    /** What the sweep varies: each matrix key with its values in file order, e.g. {@code producer.acks [1, all]}. */
    static String axes(Sweep s) {
        List<String> parts = new ArrayList<>();
        for (String axis : s.axes()) {
            java.util.LinkedHashSet<String> values = new java.util.LinkedHashSet<>();
            s.points().forEach(p -> values.add(Sweep.shown(p.values().getOrDefault(axis, ""))));
            parts.add(axis + " [" + String.join(", ", values) + "]");
        }
        String all = String.join(" x ", parts);
        return all.length() > AXES_MAX ? all.substring(0, AXES_MAX) + "..." : all;
    }

    /** Settings each valid on its own that the clients would refuse together: one line, its position in it. */
    private static final class Refused extends RuntimeException {
        Refused(String line) {
            super(line, null, false, false);
        }
    }
}
