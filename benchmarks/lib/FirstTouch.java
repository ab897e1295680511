/**
 * What fresh memory costs a JVM on this host: allocates a 512 MB array three times (each a new one, so its pages
 * are touched for the first time, unless the heap was touched before) and rewrites the last one three times
 * (pages already touched). Run by benchmarks/huge-pages.sh in source-file mode, with a 2 GB heap, once with and
 * once without -XX:+UseTransparentHugePages. Prints one line: "allocate ms ms ms, rewrite ms ms ms".
 */
public final class FirstTouch {
    public static void main(String[] args) {
        StringBuilder allocate = new StringBuilder("allocate");
        long[] array = null;
        for (int i = 0; i < 3; i++) {
            array = null; // the previous array is garbage, but its heap regions stay touched: 2 GB fits 3 arrays
            long t = System.nanoTime();
            array = new long[64 << 20];
            allocate.append(' ').append((System.nanoTime() - t) / 1_000_000);
        }
        StringBuilder rewrite = new StringBuilder("rewrite");
        for (int i = 0; i < 3; i++) {
            long t = System.nanoTime();
            java.util.Arrays.fill(array, i + 1);
            rewrite.append(' ').append((System.nanoTime() - t) / 1_000_000);
        }
        System.out.println(allocate + " ms, " + rewrite + " ms (512 MB each)");
    }
}
