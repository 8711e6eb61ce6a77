package io.respsql.tools;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertTrue;

class ProgressTest {
    /** The bar as drawn for a terminal of {@code columns}: every redraw, split at its carriage returns. */
    private static String[] draws(int columns) {
        String before = System.getProperty("respsql.columns");
        System.setProperty("respsql.columns", String.valueOf(columns));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (Progress p = new Progress("respsql-import", "bar", true, 5, new PrintStream(out, true, StandardCharsets.UTF_8))) {
            p.phase("loading", 107_227_787L, false);
            p.rows = 1_234_567;
            p.bytes = 26_000_000;
            p.show(false);
            p.rows = 5_000_000;
            p.bytes = 107_227_787L;
            p.show(true);
        } finally {
            if (before == null) {
                System.clearProperty("respsql.columns");
            } else {
                System.setProperty("respsql.columns", before);
            }
        }
        return out.toString(StandardCharsets.UTF_8).split("[\r\n]");
    }

    @Test
    void theBarFitsTheTerminalSoItCanBeRedrawnInPlace() {
        for (int columns : new int[] {40, 60, 80, 160}) {
            boolean sawBar = false;
            for (String line : draws(columns)) {
                assertTrue(line.length() < columns, columns + ": '" + line + "'");
                sawBar |= line.contains("[#");
            }
            assertTrue(sawBar || columns < 80, "no bar at " + columns + " columns");
        }
        String wide = String.join("|", draws(160));
        assertTrue(wide.contains("loading  [######..................]  24% 1,234,567 rows"), wide);
    }
}
