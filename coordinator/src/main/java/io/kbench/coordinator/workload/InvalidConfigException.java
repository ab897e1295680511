package io.kbench.coordinator.workload;

import java.util.List;
import java.util.stream.Collectors;

/** A workload or profile that cannot be used: every problem found, each with its position. */
public final class InvalidConfigException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient List<ConfigError> errors;

    public InvalidConfigException(List<ConfigError> errors) {
        super(errors.stream().map(ConfigError::toString).collect(Collectors.joining("\n")));
        this.errors = List.copyOf(errors);
    }

    public List<ConfigError> errors() {
        return errors;
    }
}
