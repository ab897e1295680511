package io.kbench.coordinator.workload;

import java.util.Collection;
import java.util.Locale;

/** Closest-name suggestions for misspelled keys (edit distance). Pure. */
public final class Names {
    private Names() { }

    /** The known name closest to {@code name}, or null when none is close (distance above a third of it). */
    public static String closest(String name, Collection<String> known) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        String n = name.toLowerCase(Locale.ROOT);
        for (String k : known) {
            int d = distance(n, k.toLowerCase(Locale.ROOT));
            if (d < bestDistance) {
                bestDistance = d;
                best = k;
            }
        }
        return best != null && bestDistance <= Math.max(2, name.length() / 3) ? best : null;
    }

    static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }
}
