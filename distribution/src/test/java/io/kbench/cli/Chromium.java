package io.kbench.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;

/**
 * Headless Chromium (Debian's {@code chromium}, which {@code .ci/run} installs when missing) for page tests:
 * the DOM after the page's scripts ran, and a screenshot. Each call is one browser process, stopped by PID
 * when it overruns.
 */
final class Chromium {
    private static final List<String> CANDIDATES = List.of("/usr/bin/chromium", "/usr/bin/chromium-browser",
            "/usr/bin/google-chrome");

    private Chromium() { }

    /** The browser, or the test is skipped with one line saying why. */
    static Path require() {
        Path found = find();
        if (found != null) {
            return found;
        }
        String why = "no headless Chromium here (" + String.join(", ", CANDIDATES) + "); .ci/run installs it";
        System.out.println("browser test SKIPPED: " + why);
        Assumptions.abort(why);
        return null;
    }

    /** The browser, or null when there is none (for a test whose browser check is one part among others). */
    static Path find() {
        for (String c : CANDIDATES) {
            if (Files.isExecutable(Path.of(c))) {
                return Path.of(c);
            }
        }
        return null;
    }

    private static String run(Path browser, Path profile, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(browser.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--no-first-run", "--disable-extensions", "--user-data-dir=" + profile));
        cmd.addAll(List.of(args));
        Path out = Files.createTempFile(profile, "out", ".txt");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(false).redirectOutput(out.toFile())
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        if (!p.waitFor(90, TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            throw new IOException("chromium did not finish within 90 s");
        }
        return Files.readString(out, StandardCharsets.UTF_8);
    }

    /**
     * The DOM of a live page: Chromium's virtual time waits while the page's network is busy, so a page that
     * keeps receiving events is dumped once they stop (the dashboard's run has ended) or the budget is spent.
     */
    static String dumpLiveDom(Path browser, String url, Path profile) throws IOException, InterruptedException {
        return run(browser, profile, "--virtual-time-budget=6000", "--dump-dom", url);
    }

    /** The page's DOM once loaded and its scripts ran. */
    static String dumpDom(Path browser, Path page, Path profile) throws IOException, InterruptedException {
        return run(browser, profile, "--virtual-time-budget=10000", "--dump-dom", page.toUri().toString());
    }

    /** A PNG of the page at 1280 px wide. */
    static void screenshot(Path browser, Path page, Path png, Path profile) throws IOException, InterruptedException {
        Files.createDirectories(png.getParent());
        run(browser, profile, "--hide-scrollbars", "--window-size=1280,3600", "--virtual-time-budget=10000",
                "--screenshot=" + png.toAbsolutePath(), page.toUri().toString());
        if (!Files.isRegularFile(png) || Files.size(png) == 0) {
            throw new IOException("chromium wrote no screenshot to " + png);
        }
    }
}
