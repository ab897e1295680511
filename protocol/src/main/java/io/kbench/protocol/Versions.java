package io.kbench.protocol;

/** Version of the coordinator-worker protocol, checked when the coordinator identifies a worker. */
public final class Versions {
    /**
     * Bumped whenever the meaning of a message changes incompatibly; coordinator and workers must agree.
     */
    public static final int PROTOCOL = 4;

    private Versions() { }

    /** The kbench version of this build (from the jar manifest), or "dev" when run from classes. */
    public static String kbench() {
        String v = Versions.class.getPackage().getImplementationVersion();
        return v == null ? "dev" : v;
    }
}
