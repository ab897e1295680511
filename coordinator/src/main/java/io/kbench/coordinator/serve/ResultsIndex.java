package io.kbench.coordinator.serve;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

/**
 * The pages of {@link ResultsServer}: the runs under its directory (each directory holding a {@code result.json} or
 * a {@code sweep.json}, at most {@link #MAX_DEPTH} levels down, with its status, workload and start read from the
 * head of its result.json) and a directory's files. Both bounded: {@link #MAX_RUNS} runs and {@link #MAX_ENTRIES}
 * files per page, {@link #MAX_ENTRIES} entries looked at per directory and {@link #MAX_VISITED} directories,
 * whatever the volume holds.
 */
final class ResultsIndex {
    static final int MAX_DEPTH = 4;
    static final int MAX_RUNS = 1_000;
    static final int MAX_ENTRIES = 5_000;
    static final int MAX_VISITED = 20_000;
    private static final JsonFactory JSON = new JsonFactory();

    private final Path root;

    ResultsIndex(Path root) {
        this.root = root;
    }

    /** What a run directory's result.json says of it, from its first top-level keys; blanks where it says nothing. */
    record Run(String path, String kind, String status, String workload, String startedAt) {
    }

    /** The runs under the root, by path; {@code truncated} when there were more than {@link #MAX_RUNS} or too many directories. */
    record Runs(List<Run> runs, boolean truncated) {
    }

    Runs runs() throws IOException {
        List<Run> runs = new ArrayList<>();
        int[] visited = {0};
        boolean truncated = collect(root, 0, runs, visited);
        runs.sort(java.util.Comparator.comparing(Run::path));
        return new Runs(runs, truncated);
    }

    private boolean collect(Path dir, int depth, List<Run> runs, int[] visited) throws IOException {
        if (++visited[0] > MAX_VISITED || runs.size() >= MAX_RUNS) {
            return true;
        }
        String rel = root.relativize(dir).toString().replace('\\', '/');
        int sweep = -1;
        if (Files.isRegularFile(dir.resolve("result.json"), LinkOption.NOFOLLOW_LINKS)) {
            runs.add(read(rel, dir.resolve("result.json")));
        } else if (Files.isRegularFile(dir.resolve("sweep.json"), LinkOption.NOFOLLOW_LINKS)) {
            sweep = runs.size();
            runs.add(new Run(rel, "sweep", "", "", ""));
        }
        if (depth >= MAX_DEPTH) {
            return false;
        }
        List<Path> children = new ArrayList<>();
        boolean truncated = false;
        try (var list = Files.list(dir)) {
            int seen = 0;
            for (Path p : (Iterable<Path>) list::iterator) {
                if (++seen > MAX_ENTRIES) {
                    truncated = true; // a directory of more entries than a page shows: its first ones only
                    break;
                }
                if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                    children.add(p);
                }
            }
        } catch (IOException | SecurityException unreadable) {
            return false;
        }
        children.sort(null);
        for (Path c : children) {
            truncated |= collect(c, depth + 1, runs, visited);
        }
        if (sweep >= 0) {
            // a sweep's workload and start: its first combination's (the priming run's when it primed)
            String prefix = rel.isEmpty() ? "" : rel + "/";
            for (int i = sweep + 1; i < runs.size(); i++) {
                Run c = runs.get(i);
                if (c.path().startsWith(prefix) && !c.workload().isEmpty()) {
                    runs.set(sweep, new Run(rel, "sweep", "", c.workload(), c.startedAt()));
                    break;
                }
            }
        }
        return truncated;
    }

    /** status, runId, startedAt and workload.name from the head of a result.json, without reading the rest. */
    static Run read(String rel, Path resultJson) {
        String status = "";
        String started = "";
        String workload = "";
        try (InputStream in = Files.newInputStream(resultJson); JsonParser p = JSON.createParser(in)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return new Run(rel, "run", "unreadable", "", "");
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String key = p.currentName();
                JsonToken value = p.nextToken();
                if (key.equals("status") && value == JsonToken.VALUE_STRING) {
                    status = p.getText();
                } else if (key.equals("startedAt") && value == JsonToken.VALUE_STRING) {
                    started = p.getText();
                } else if (key.equals("merged") && value == JsonToken.START_ARRAY) {
                    // kbench merge's result: no run of its own; the workloads of those it merged
                    workload = merged(p);
                    started = "-";
                } else if (key.equals("workload") && value == JsonToken.START_OBJECT) {
                    while (p.nextToken() == JsonToken.FIELD_NAME) {
                        String k = p.currentName();
                        JsonToken v = p.nextToken();
                        if (k.equals("name") && v == JsonToken.VALUE_STRING) {
                            workload = p.getText();
                        } else {
                            p.skipChildren();
                        }
                    }
                } else {
                    p.skipChildren();
                }
                if (!status.isEmpty() && !started.isEmpty() && !workload.isEmpty()) {
                    break;
                }
            }
        } catch (IOException | RuntimeException e) {
            return new Run(rel, "run", status.isEmpty() ? "unreadable" : status, workload, started);
        }
        return new Run(rel, "run", status, workload, started);
    }

    /** At most this many merged runs' workload names are listed; the count says how many there were. */
    static final int MERGED_NAMES = 5;

    /**
     * "merge of 2: quickstart" from a merged result's {@code merged} array (the parser on its start): the number of
     * results and their distinct workload names, the first {@link #MERGED_NAMES}.
     */
    private static String merged(JsonParser p) throws IOException {
        int count = 0;
        java.util.Set<String> names = new java.util.LinkedHashSet<>();
        for (JsonToken t = p.nextToken(); t != null && t != JsonToken.END_ARRAY; t = p.nextToken()) {
            if (t != JsonToken.START_OBJECT) {
                p.skipChildren(); // not a merged run (a tampered file): passed over
                continue;
            }
            count++;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String k = p.currentName();
                JsonToken v = p.nextToken();
                if (k.equals("workload") && v == JsonToken.VALUE_STRING && names.size() < MERGED_NAMES) {
                    names.add(p.getText());
                } else {
                    p.skipChildren();
                }
            }
        }
        return "merge of " + count + (names.isEmpty() ? "" : ": " + String.join(", ", names)
                + (names.size() == MERGED_NAMES ? ", ..." : ""));
    }

    /** The page at {@code /}. */
    String page() throws IOException {
        Runs r = runs();
        StringBuilder h = head("kbench results");
        long sweeps = r.runs().stream().filter(x -> x.kind().equals("sweep")).count();
        long runs = r.runs().size() - sweeps;
        h.append("<h1>kbench results</h1>\n<p class=\"dim\">").append(esc(root.toString())).append(" — ")
                .append(runs).append(runs == 1 ? " run" : " runs")
                .append(sweeps == 0 ? "" : " and " + sweeps + (sweeps == 1 ? " sweep" : " sweeps"))
                .append(r.truncated() ? " (the first " + r.runs().size() + " found; there are more: see the directories below)" : "")
                .append(". Each run as a zip: its link ending in <code>.zip</code>. <a href=\"").append("/")
                .append("results.zip\">Everything as one zip</a>.</p>\n");
        if (!r.runs().isEmpty()) {
            h.append("<table>\n<tr><th>run</th><th>status</th><th>workload</th><th>started</th><th></th></tr>\n");
            for (Run run : r.runs()) {
                String href = "/" + href(run.path());
                String base = run.path().isEmpty() ? "/" : href + "/";
                h.append("<tr><td><a href=\"").append(base).append("\">").append(esc(run.path().isEmpty() ? "." : run.path()))
                        .append("</a></td><td class=\"").append(esc(run.status().toLowerCase(Locale.ROOT))).append("\">")
                        .append(esc(run.kind().equals("sweep") ? "sweep" : run.status())).append("</td><td>")
                        .append(esc(run.workload())).append("</td><td>").append(esc(run.startedAt())).append("</td><td>");
                // the files the run (or the sweep: its own page and table) wrote: a merge writes no report.html,
                // and a run whose page could not be written has none either
                Path dir = run.path().isEmpty() ? root : root.resolve(run.path());
                for (String f : run.kind().equals("run") ? List.of("report.html", "result.json")
                        : List.of("report.html", "sweep.json", "sweep.csv")) {
                    if (Files.isRegularFile(dir.resolve(f), LinkOption.NOFOLLOW_LINKS)) {
                        h.append("<a href=\"").append(base).append(f).append("\">")
                                .append(f.equals("report.html") ? "report" : f).append("</a> · ");
                    }
                }
                h.append("<a href=\"").append(run.path().isEmpty() ? "/results" : href).append(".zip\">zip</a></td></tr>\n");
            }
            h.append("</table>\n");
        }
        h.append("<h2>In this directory</h2>\n").append(entries(root));
        return h.append("</body></html>\n").toString();
    }

    /** The page of a directory under the root. */
    String listing(Path dir) throws IOException {
        String rel = root.relativize(dir).toString().replace('\\', '/');
        StringBuilder h = head(rel.isEmpty() ? "kbench results" : rel);
        h.append("<h1>").append(esc(rel.isEmpty() ? "/" : rel + "/")).append("</h1>\n<p><a href=\"/\">all runs</a>");
        if (!rel.isEmpty()) {
            h.append(" · <a href=\"/").append(href(rel)).append(".zip\">this directory as a zip</a>");
        }
        h.append("</p>\n");
        return h.append(entries(dir)).append("</body></html>\n").toString();
    }

    private String entries(Path dir) throws IOException {
        List<Path> all = new ArrayList<>();
        boolean more = false;
        try (var list = Files.list(dir)) {
            for (Path p : (Iterable<Path>) list::iterator) {
                if (all.size() >= MAX_ENTRIES) {
                    more = true;
                    break;
                }
                all.add(p);
            }
        }
        all.sort(null);
        String rel = root.relativize(dir).toString().replace('\\', '/');
        String prefix = rel.isEmpty() ? "/" : "/" + href(rel) + "/";
        StringBuilder h = new StringBuilder("<table>\n<tr><th>name</th><th class=\"num\">bytes</th><th>modified</th></tr>\n");
        for (Path p : all) {
            String name = p.getFileName().toString();
            boolean directory = Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS);
            boolean file = Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS);
            if (!directory && !file) {
                continue; // links, devices, sockets: not served
            }
            h.append("<tr><td><a href=\"").append(prefix).append(href(name)).append(directory ? "/" : "").append("\">")
                    .append(esc(name)).append(directory ? "/" : "").append("</a></td><td class=\"num\">")
                    .append(file ? String.format(Locale.ROOT, "%,d", Files.size(p)) : "").append("</td><td>")
                    .append(esc(Files.getLastModifiedTime(p, LinkOption.NOFOLLOW_LINKS).toInstant().toString()))
                    .append("</td></tr>\n");
        }
        h.append("</table>\n");
        if (more) {
            h.append("<p class=\"dim\">The first ").append(MAX_ENTRIES).append(" entries only; the zip holds them all.</p>\n");
        }
        return h.toString();
    }

    private static StringBuilder head(String title) {
        return new StringBuilder("<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>").append(esc(title))
                .append("</title><style>body{font:14px system-ui,sans-serif;margin:2em;color:#222}"
                        + "table{border-collapse:collapse;margin:1em 0}td,th{padding:4px 12px;text-align:left;"
                        + "border-bottom:1px solid #ddd}.num{text-align:right}.dim{color:#666}.failed{color:#b00020;"
                        + "font-weight:600}.completed{color:#1b7f3b}code{background:#f3f3f3;padding:0 3px}</style>"
                        + "</head><body>\n");
    }

    /** A relative path as a URL path: each segment's UTF-8 bytes percent-encoded but for the unreserved characters. */
    static String href(String rel) {
        StringBuilder b = new StringBuilder();
        for (byte c : rel.getBytes(java.nio.charset.StandardCharsets.UTF_8)) {
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.'
                    || c == '_' || c == '~' || c == '/') {
                b.append((char) c);
            } else {
                b.append('%').append(Character.toUpperCase(Character.forDigit((c >> 4) & 0xF, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 0xF, 16)));
            }
        }
        return b.toString();
    }

    static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;").replace("'", "&#39;");
    }
}
