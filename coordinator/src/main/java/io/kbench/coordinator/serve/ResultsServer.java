package io.kbench.coordinator.serve;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

import io.kbench.coordinator.UserException;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;

/**
 * A directory of results, served read-only over HTTP with Vert.x ({@code kbench serve}): {@code /} lists the runs
 * in it ({@link ResultsIndex}), a directory's path lists its files, a file's path is the file (report.html opens in
 * the browser), and a directory's path with {@code .zip} is that directory as a zip, streamed as it is written. For
 * results on a volume that nothing with a shell can reach (the Kubernetes Job's, docs/kubernetes.md). Nothing outside
 * the directory is served: no {@code ..}, no symbolic link that leads out of it; GET and HEAD only.
 */
public final class ResultsServer implements AutoCloseable {
    /** How long a zip being written waits for a client that does not read before it gives up on it. */
    static final long STALLED_CLIENT_SECONDS = 60;
    /** The path of the whole directory as a zip. */
    static final String ALL = "/results.zip";

    private final Vertx vertx;
    private final HttpServer server;
    private final Path root;
    private final ResultsIndex index;

    private ResultsServer(Vertx vertx, HttpServer server, Path root) {
        this.vertx = vertx;
        this.server = server;
        this.root = root;
        this.index = new ResultsIndex(root);
    }

    /**
     * Serves {@code directory} on {@code host:port} (port 0: a free one).
     *
     * @throws UserException one line when the directory cannot be read or the address cannot be bound
     */
    public static ResultsServer start(Path directory, String host, int port) {
        Path root;
        try {
            root = directory.toRealPath();
        } catch (IOException e) {
            throw new UserException(directory + ": no such directory");
        }
        if (!Files.isDirectory(root)) {
            throw new UserException(directory + ": not a directory (give the directory that holds the runs)");
        }
        if (!Files.isReadable(root) || !Files.isExecutable(root)) {
            throw new UserException(directory + ": cannot read this directory (permissions)");
        }
        Vertx vertx = Vertx.vertx();
        HttpServer http = vertx.createHttpServer();
        ResultsServer s = new ResultsServer(vertx, http, root);
        http.requestHandler(s::handle);
        try {
            http.listen(port, host).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            vertx.close();
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            throw new UserException(host + ":" + port + ": cannot listen: " + cause.getMessage());
        }
        return s;
    }

    /** The port it listens on. */
    public int port() {
        return server.actualPort();
    }

    /** The directory it serves (its real path). */
    public Path root() {
        return root;
    }

    private void handle(HttpServerRequest req) {
        HttpServerResponse res = req.response();
        res.putHeader("x-content-type-options", "nosniff");
        if (req.method() != HttpMethod.GET && req.method() != HttpMethod.HEAD) {
            res.setStatusCode(405).putHeader("allow", "GET, HEAD");
            text(res, "read-only: GET and HEAD only\n");
            return;
        }
        String path = decode(req.path());
        if (path == null) {
            res.setStatusCode(400);
            text(res, "not a path this serves\n");
            return;
        }
        if (path.equals("/")) {
            offLoop(res, "text/html; charset=utf-8", () -> index.page());
            return;
        }
        // what the path names, looked up off the event loop: on a network volume a stat can block
        vertx.executeBlocking(() -> classify(path), false).onComplete(r -> {
            Target t = r.succeeded() ? r.result() : new Target(Kind.MISSING, null);
            switch (t.kind()) {
                case ZIP -> zip(req, res, t.path());
                case MISSING -> notFound(res);
                case REDIRECT -> res.setStatusCode(301).putHeader("location", req.path() + "/").end();
                case LISTING -> offLoop(res, "text/html; charset=utf-8", () -> index.listing(t.path()));
                case FILE -> res.sendFile(t.path().toString()).onFailure(e -> {
                    if (!res.ended() && !res.headWritten()) {
                        res.setStatusCode(500);
                        text(res, "cannot read this file: " + e.getMessage() + "\n");
                    }
                });
            }
        });
    }

    private enum Kind { ZIP, LISTING, REDIRECT, FILE, MISSING }

    private record Target(Kind kind, Path path) {
    }

    /** What a decoded path other than {@code /} names (blocking: file-system calls). */
    private Target classify(String path) {
        if (path.endsWith(".zip")) {
            Path dir = resolve(path.substring(0, path.length() - ".zip".length()));
            if (dir == null && path.equals(ALL)) {
                dir = root; // the whole directory (unless it holds a "results" directory of its own)
            }
            if (dir != null && Files.isDirectory(dir)) {
                return new Target(Kind.ZIP, dir);
            }
            // else: a file whose name ends in .zip
        }
        Path target = resolve(path);
        if (target == null) {
            return new Target(Kind.MISSING, null);
        }
        if (Files.isDirectory(target)) {
            return new Target(path.endsWith("/") ? Kind.LISTING : Kind.REDIRECT, target);
        }
        return new Target(Files.isRegularFile(target) ? Kind.FILE : Kind.MISSING, target);
    }

    /** The request's path, percent-decoded; null when it is not one (malformed, a NUL, a {@code .} or {@code ..} segment). */
    static String decode(String raw) {
        if (raw == null || !raw.startsWith("/")) {
            return null;
        }
        String path;
        try {
            path = new URI("http://h" + raw).getPath();
        } catch (URISyntaxException e) {
            return null;
        }
        if (path == null || path.indexOf('\0') >= 0 || path.contains("\\")) {
            return null;
        }
        for (String segment : path.split("/", -1)) {
            if (segment.equals(".") || segment.equals("..")) {
                return null;
            }
        }
        return path;
    }

    /** The file a decoded path names, when it is under the root once every symbolic link is followed; else null. */
    Path resolve(String path) {
        Path p = root.resolve(path.substring(1)).normalize();
        if (!p.startsWith(root) || !Files.exists(p)) {
            return null;
        }
        try {
            Path real = p.toRealPath();
            return real.startsWith(root) ? real : null;
        } catch (IOException e) {
            return null;
        }
    }

    private void zip(HttpServerRequest req, HttpServerResponse res, Path dir) {
        String name = dir.equals(root) ? "results" : dir.getFileName().toString();
        String fileName = name.replaceAll("[^A-Za-z0-9._-]", "_") + ".zip";
        res.putHeader("content-type", "application/zip")
                .putHeader("content-disposition", "attachment; filename=\"" + fileName + "\"");
        if (req.method() == HttpMethod.HEAD) {
            res.end();
            return;
        }
        res.setChunked(true);
        Context context = vertx.getOrCreateContext();
        ResponseStream out = new ResponseStream(res, context);
        vertx.executeBlocking(() -> {
            try (ZipOutputStream z = new ZipOutputStream(new java.io.BufferedOutputStream(out, 1 << 16))) {
                writeZip(z, dir, name);
            }
            return null;
        }, false).onComplete(r -> {
            if (r.failed()) {
                // the client went away, or a file could not be read: the zip is cut short and the connection closed,
                // so that a client does not take a truncated zip for a whole one
                res.reset();
            }
        });
    }

    /** Every regular file under {@code dir} (symbolic links left out), as {@code name/relative/path}. */
    static void writeZip(ZipOutputStream z, Path dir, String name) throws IOException {
        try (var files = Files.walk(dir)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                if (!Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS)) {
                    continue;
                }
                ZipEntry e = new ZipEntry(name + "/" + dir.relativize(f).toString().replace('\\', '/'));
                e.setLastModifiedTime(Files.getLastModifiedTime(f, LinkOption.NOFOLLOW_LINKS));
                z.putNextEntry(e);
                Files.copy(f, z);
                z.closeEntry();
            }
        }
    }

    private void offLoop(HttpServerResponse res, String contentType, java.util.concurrent.Callable<String> body) {
        vertx.executeBlocking(body, false).onComplete(r -> {
            if (r.succeeded()) {
                res.putHeader("content-type", contentType).end(r.result());
            } else {
                res.setStatusCode(500);
                text(res, "cannot list this: " + r.cause().getMessage() + "\n");
            }
        });
    }

    private static void notFound(HttpServerResponse res) {
        res.setStatusCode(404);
        text(res, "not found\n");
    }

    private static void text(HttpServerResponse res, String body) {
        res.putHeader("content-type", "text/plain; charset=utf-8").end(body);
    }

    @Override
    public void close() {
        try {
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            // closing anyway
        }
    }

    /**
     * An output stream onto a chunked response, written from a worker thread: each write is handed to the response's
     * event loop and waits while the response's queue is full (a slow client slows the zip down, memory stays at one
     * queue), and fails once the client has gone or has not read for {@link #STALLED_CLIENT_SECONDS}.
     */
    static final class ResponseStream extends OutputStream {
        private final HttpServerResponse res;
        private final Context context;
        private volatile boolean gone;
        private volatile CompletableFuture<Void> pending;

        ResponseStream(HttpServerResponse res, Context context) {
            this.res = res;
            this.context = context;
            res.closeHandler(x -> { // built on the response's event loop
                gone = true;
                CompletableFuture<Void> p = pending;
                if (p != null) {
                    p.completeExceptionally(new IOException("the client went away"));
                }
            });
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            if (len == 0) {
                return;
            }
            Buffer chunk = Buffer.buffer(len).appendBytes(b, off, len);
            send(v -> {
                res.write(chunk);
                return res.writeQueueFull();
            });
        }

        @Override
        public void close() throws IOException {
            send(v -> {
                res.end();
                return false;
            });
        }

        private void send(java.util.function.Function<Void, Boolean> onLoop) throws IOException {
            if (gone) {
                throw new IOException("the client went away");
            }
            CompletableFuture<Void> ready = new CompletableFuture<>();
            pending = ready;
            context.runOnContext(v -> {
                try {
                    if (gone) {
                        ready.completeExceptionally(new IOException("the client went away"));
                    } else if (onLoop.apply(null)) {
                        res.drainHandler(x -> ready.complete(null));
                    } else {
                        ready.complete(null);
                    }
                } catch (RuntimeException e) {
                    ready.completeExceptionally(new IOException(e.getMessage(), e));
                }
            });
            try {
                ready.get(STALLED_CLIENT_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted");
            } catch (ExecutionException e) {
                throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
            } catch (TimeoutException e) {
                throw new IOException("the client read nothing for " + STALLED_CLIENT_SECONDS + " s");
            }
        }
    }
}
