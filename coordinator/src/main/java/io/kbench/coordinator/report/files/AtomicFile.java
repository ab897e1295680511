package io.kbench.coordinator.report.files;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Writes a file whole or not at all: into {@code NAME.tmp} beside it, then renamed over it. A write that
 * fails (a full disk, a directory where the temporary file should go) removes its part-written temporary
 * file and throws, so a reader never finds half a result and no {@code .tmp} is left behind.
 */
public final class AtomicFile {
    /** What writes the content to the temporary file's stream. */
    public interface Content {
        void writeTo(OutputStream out) throws IOException;
    }

    private AtomicFile() { }

    public static Path write(Path file, Content content) throws IOException {
        if (Files.isDirectory(file, LinkOption.NOFOLLOW_LINKS)) {
            // a rename would replace an empty directory with the file: never take a directory's place
            throw new java.nio.file.FileSystemException(file.toString(), null, "a directory is in the way");
        }
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try {
            try (OutputStream out = new java.io.BufferedOutputStream(Files.newOutputStream(tmp), 1 << 16)) {
                content.writeTo(out);
            }
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException | RuntimeException e) {
            try {
                if (Files.isRegularFile(tmp, LinkOption.NOFOLLOW_LINKS)) {
                    Files.delete(tmp);
                }
            } catch (IOException ignored) {
                // the write's own failure is the one to report
            }
            throw e;
        }
        return file;
    }

    public static Path write(Path file, String text) throws IOException {
        return write(file, out -> out.write(text.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    }
}
