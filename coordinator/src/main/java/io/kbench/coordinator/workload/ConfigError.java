package io.kbench.coordinator.workload;

/**
 * One problem in a workload or profile file, at a position: printed as
 * {@code file:line:column: message}. Line and column are 1-based.
 */
public record ConfigError(String file, int line, int column, String message) {
    @Override
    public String toString() {
        return file + ":" + line + ":" + column + ": " + message;
    }
}
