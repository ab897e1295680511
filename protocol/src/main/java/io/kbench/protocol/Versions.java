package io.kbench.protocol;

/** Version of the coordinator-worker protocol, checked when the coordinator identifies a worker. */
public final class Versions {
    /**
     * Bumped whenever the meaning of a message changes incompatibly; coordinator and workers must agree.
     */
    public static final int PROTOCOL = 7;

    private Versions() { }

    private static final String COMMIT = readCommit();

    /**
     * The git commit this build was made from: the full id, with {@code -dirty} when the working tree had
     * changes; empty when the build was not made in a git checkout.
     */
    public static String commit() {
        return COMMIT;
    }

    private static String readCommit() {
        java.util.Properties p = new java.util.Properties();
        try (java.io.InputStream in = Versions.class.getResourceAsStream("git.properties")) {
            if (in == null) {
                return "";
            }
            p.load(in);
        } catch (java.io.IOException e) {
            return "";
        }
        String id = p.getProperty("git.commit.id", "");
        return id.isEmpty() ? "" : id + ("true".equals(p.getProperty("git.dirty")) ? "-dirty" : "");
    }

    /** The kbench version of this build (from the jar manifest), or "dev" when run from classes. */
    public static String kbench() {
        String v = Versions.class.getPackage().getImplementationVersion();
        return v == null ? "dev" : v;
    }
}
