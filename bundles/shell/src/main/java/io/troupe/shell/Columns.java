package io.troupe.shell;

import java.io.PrintStream;
import java.util.List;

/**
 * Prints rows as left-aligned columns two spaces apart, the way every table of the Troupe commands
 * looks; the last column is not padded.
 *
 * <p><b>Threading:</b> stateless; any thread.
 */
final class Columns {

    private Columns() {
    }

    /** Prints {@code rows}, the first being the header; every row has as many cells as the header. */
    static void print(PrintStream out, List<String[]> rows) {
        int columns = rows.get(0).length;
        int[] widths = new int[columns];
        for (String[] row : rows) {
            for (int i = 0; i < columns; i++) {
                widths[i] = Math.max(widths[i], row[i].length());
            }
        }
        for (String[] row : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < columns; i++) {
                line.append(row[i]);
                if (i < columns - 1) {
                    line.append(" ".repeat(widths[i] - row[i].length() + 2));
                }
            }
            out.println(line);
        }
    }
}
