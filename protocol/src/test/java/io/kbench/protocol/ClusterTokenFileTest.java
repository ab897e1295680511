package io.kbench.protocol;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which token file modes the worker warns about: the owner's alone, or a Kubernetes Secret's 0440 with fsGroup. */
class ClusterTokenFileTest {
    @TempDir
    Path dir;

    @Test
    void warnsAboutOthersAndForeignGroupsNotAboutTheProcesssOwnGroup() throws Exception {
        Path f = Files.writeString(dir.resolve("token"), "0123456789abcdef0123456789abcdef\n");
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("r--------"));
        assertFalse(ClusterToken.readableByOthers(f), "0400");
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("r--r-----"));
        assertFalse(ClusterToken.readableByOthers(f), "0440 with this process's own group (a pod's fsGroup)");
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("r--r--r--"));
        assertTrue(ClusterToken.readableByOthers(f), "0444: everyone");
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("r--r-----"));
        int other = (int) new com.sun.security.auth.module.UnixSystem().getGid() == 65534 ? 65533 : 65534;
        try {
            Files.setAttribute(f, "unix:gid", other);
        } catch (java.io.IOException e) {
            Assumptions.abort("cannot give the file another group here (not root): " + e.getMessage());
        }
        assertTrue(ClusterToken.readableByOthers(f), "0440 with a group that is not this process's");
    }
}
