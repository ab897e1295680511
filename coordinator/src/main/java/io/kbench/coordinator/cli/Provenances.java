package io.kbench.coordinator.cli;

import java.util.ArrayList;
import java.util.List;

import io.kbench.coordinator.workload.Profile;
import picocli.CommandLine;

/** What a command records of how it was started. */
final class Provenances {
    private Provenances() { }

    /**
     * The arguments after {@code kbench}, as given (the subcommand's name first; picocli keeps the whole
     * original list on every parse result), except that the value of a {@code KEY=VALUE} whose key looks
     * secret is {@link Profile#REDACTED}, as in the recorded profile: {@code --set common.sasl.jaas.config=...}
     * must not end up in result.json.
     */
    static List<String> commandLine(CommandLine.Model.CommandSpec spec) {
        CommandLine.ParseResult own = spec.commandLine().getParseResult();
        return own == null ? List.of() : redacted(own.originalArgs());
    }

    static List<String> redacted(List<String> args) {
        List<String> out = new ArrayList<>();
        for (String a : args) {
            String pair = a.startsWith("--") && a.indexOf('=') > 0 ? a.substring(a.indexOf('=') + 1) : a;
            int eq = pair.indexOf('=');
            out.add(eq > 0 && Profile.isSecret(pair.substring(0, eq))
                    ? a.substring(0, a.length() - pair.length() + eq + 1) + Profile.REDACTED : a);
        }
        return List.copyOf(out);
    }
}
