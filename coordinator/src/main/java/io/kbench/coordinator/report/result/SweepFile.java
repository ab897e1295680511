package io.kbench.coordinator.report.result;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.kbench.coordinator.merge.LatencyStats;

/**
 * The type of {@code sweep.json}, which {@code kbench run} writes beside a sweep's combinations: the axes, and one
 * entry per combination in the order they ran. docs/schema/sweep.schema.json is checked against it by tests. Keys
 * appear in the order of the record components; a combination without figures (refused, skipped, or failed before
 * its measured window) has none of the figure keys.
 *
 * @param axes    the matrix's keys, the first varying slowest
 * @param runs    one entry per combination
 * @param priming the unmeasured run of the first combination before them (absent: the sweep was not primed)
 */
public record SweepFile(@JsonProperty(required = true) List<String> axes,
                        @JsonProperty(required = true) List<Combination> runs,
                        @JsonInclude(JsonInclude.Include.NON_NULL) Priming priming) {

    /** A sweep that was not primed. */
    public SweepFile(List<String> axes, List<Combination> runs) {
        this(axes, runs, null);
    }

    /**
     * The run that primed the sweep's JVMs: the first combination's clients and settings, unmeasured, for
     * {@code seconds}, so that its row is not a cold start's.
     *
     * @param seconds how long it ran its load
     * @param status  COMPLETED, FAILED or REFUSED
     * @param result  its result.json, or null when none was written
     */
    public record Priming(int seconds, String status, String result) { }

    /**
     * @param values                the combination's value of each axis
     * @param status                COMPLETED, FAILED, REFUSED (its workload or profile was refused) or SKIPPED (after
     *                              Ctrl-C)
     * @param targetRate            msg/s for the whole workload, -1 unthrottled, 0 without producers
     * @param result                the combination's result.json, or null when none was written
     * @param limitedBy             the limit its diagnosis named ({@code diagnosis.limit}), or null
     * @param publishRate           acknowledged msg/s over the measured window
     * @param publishMBps           acknowledged MB/s over the measured window
     * @param consumeRate           received msg/s over the measured window
     * @param consumeMBps           received MB/s over the measured window (every group)
     * @param brokerInMBps          the brokers' bytes in over the measured window, MB/s: the values as the producers
     *                              compressed them, with keys, headers and batch headers (absent unless every broker
     *                              was read in every measured interval)
     * @param replicationMBps       the brokers' replication bytes in over the measured window, MB/s (absent unless
     *                              every broker was read in every measured interval)
     * @param networkShare          produced against the brokers' network ceiling, 0-1 (absent without a bandwidth)
     * @param publishLatencyMicros  send to acknowledgement
     * @param publishResponseMicros intended send time to acknowledgement (includes the generator's delay)
     * @param endToEndLatencyMicros stamped send time to receipt
     * @param saturatedIntervals    measured intervals whose publish delay p99 was above the threshold
     * @param fellBehind            the window did not sustain the target (see docs/workloads.md, "Sweeps")
     */
    public record Combination(@JsonProperty(required = true) Map<String, String> values,
                              @JsonProperty(required = true) String status,
                              @JsonProperty(required = true) long targetRate,
                              @JsonProperty(required = true) String result,
                              @JsonProperty(required = true) String limitedBy,
                              @JsonInclude(JsonInclude.Include.NON_NULL) Double publishRate,
                              @JsonInclude(JsonInclude.Include.NON_NULL) Double publishMBps,
                              @JsonInclude(JsonInclude.Include.NON_NULL) Double consumeRate,
                              @JsonInclude(JsonInclude.Include.NON_NULL) Double consumeMBps,
                              @JsonInclude(JsonInclude.Include.NON_NULL) Double brokerInMBps,
                              @JsonInclude(JsonInclude.Include.NON_NULL) Double replicationMBps,
                              @JsonInclude(JsonInclude.Include.NON_NULL) Double networkShare,
                              @JsonInclude(JsonInclude.Include.NON_NULL) LatencyStats publishLatencyMicros,
                              @JsonInclude(JsonInclude.Include.NON_NULL) LatencyStats publishResponseMicros,
                              @JsonInclude(JsonInclude.Include.NON_NULL) LatencyStats endToEndLatencyMicros,
                              @JsonInclude(JsonInclude.Include.NON_NULL) Long saturatedIntervals,
                              @JsonInclude(JsonInclude.Include.NON_NULL) Boolean fellBehind) { }
}
