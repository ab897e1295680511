package io.kbench.coordinator.cli;

import java.util.List;

import picocli.CommandLine;

/** What a command records of how it was started. */
final class Provenances {
    private Provenances() { }

    /**
     * The arguments after {@code kbench}, exactly as given (the subcommand's name first): picocli keeps the
     * whole original list on every parse result.
     */
    static List<String> commandLine(CommandLine.Model.CommandSpec spec) {
        CommandLine.ParseResult own = spec.commandLine().getParseResult();
        return own == null ? List.of() : List.copyOf(own.originalArgs());
    }
}
