package io.kbench.coordinator.report.console;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntPredicate;

/** A table of text cells laid out in padded columns, as the console shows sweeps, comparisons and searches. */
public final class TextTable {
    private TextTable() { }

    /**
     * The rows as lines: every column as wide as its widest cell, cells padded on the right where
     * {@code leftAligned} says so and on the left otherwise, trailing spaces removed.
     *
     * @param indent before the first cell of each line
     * @param gap    between cells
     */
    public static List<String> lines(List<List<String>> rows, IntPredicate leftAligned, String indent, String gap) {
        int columns = rows.stream().mapToInt(List::size).max().orElse(0);
        int[] width = new int[columns];
        for (List<String> r : rows) {
            for (int i = 0; i < r.size(); i++) {
                width[i] = Math.max(width[i], r.get(i).length());
            }
        }
        List<String> out = new ArrayList<>();
        for (List<String> r : rows) {
            StringBuilder b = new StringBuilder(indent);
            for (int i = 0; i < r.size(); i++) {
                String cell = r.get(i);
                String pad = " ".repeat(width[i] - cell.length());
                b.append(i == 0 ? "" : gap).append(leftAligned.test(i) ? cell + pad : pad + cell);
            }
            out.add(b.toString().stripTrailing());
        }
        return out;
    }
}
