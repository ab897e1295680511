package io.kbench.cli;

/**
 * The main class of an embedded cluster's node in a JVM of its own (see {@code EmbeddedKafka.Builder.processPerNode}):
 * the node, answering for its own metrics as the worker's broker source "local" reads them. Started by
 * {@link InProcessEnvironment}, never by a user.
 */
public final class BrokerNodeMain {
    private BrokerNodeMain() { }

    public static void main(String[] args) {
        io.kbench.embedded.NodeProcess.serve(args, () -> io.kbench.worker.EmbeddedBrokers::readThisJvm);
    }
}
