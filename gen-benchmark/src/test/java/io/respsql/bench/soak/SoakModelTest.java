package io.respsql.bench.soak;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SoakModelTest {
    private static final int[] ONLY_INSERT = {1, 1, 1, 1};
    private static final int[] ONLY_UPDATE = {0, 0, 1, 1};
    private static final int[] ONLY_DELETE = {0, 0, 0, 1};
    private static final int[] ONLY_SELECT = {0, 1, 1, 1};

    private static Reply ok() {
        return new Reply('+', "OK", 0, List.of());
    }

    private static Reply integer(long n) {
        return new Reply(':', String.valueOf(n), n, List.of());
    }

    private static Reply rows(String... rows) {
        return new Reply('*', null, rows.length, List.of(rows));
    }

    @Test
    void seedRowsAreTheConnectionsOwnIdsAndGroups() {
        SoakModel m = new SoakModel(2, 1000, 10, 150);
        assertTrue(m.seeding());
        SoakModel.Op first = m.nextSeed();
        assertEquals(List.of("INSERT", "INTO", "soak", "VALUES"), List.of(first.words).subList(0, 4));
        assertTrue(first.words[4].startsWith("(2001,20,0),(2002,21,0),"), first.words[4]);
        assertTrue(first.words[4].endsWith("(2100,29,0)"), first.words[4]);
        assertNull(m.acknowledge(ok()));
        assertTrue(m.seeding());
        SoakModel.Op second = m.nextSeed();
        assertTrue(second.words[4].startsWith("(2101,20,0)"), second.words[4]);
        assertNull(m.acknowledge(ok()));
        assertFalse(m.seeding());
        assertEquals(150, m.rows());
        assertEquals(15, m.groupCount(0));
    }

    @Test
    void updateMustMatchTheGroupsRowsAndAddsToThemOnly() {
        SoakModel m = seeded(20, 10);                 // rows 0..19: two per group
        SplittableRandom r = new SplittableRandom(1);
        SoakModel.Op op = m.next(r, ONLY_UPDATE);
        assertEquals(SoakModel.Kind.UPDATE, op.kind);
        int groups = op.g2 - op.g1 + 1;
        assertEquals("v = v + 1", op.words[3]);
        assertNotNull(m.acknowledge(integer(2 * groups + 1)), "a wrong matched-row count is a failure");
        // The failed reply changed nothing; the right count is applied.
        SoakModel.Op again = m.next(new SplittableRandom(1), ONLY_UPDATE);
        assertNull(m.acknowledge(integer(2L * (again.g2 - again.g1 + 1))));
        for (int l = 0; l < 20; l++) {
            int g = l % 10;
            assertEquals(g >= again.g1 && g <= again.g2 ? 1 : 0, m.v(l), "row " + l);
        }
    }

    @Test
    void rowsInsertedAfterAnUpdateStartAtZero() {
        SoakModel m = seeded(10, 10);
        SoakModel.Op up = m.next(new SplittableRandom(3), ONLY_UPDATE);
        assertNull(m.acknowledge(integer(up.g2 - up.g1 + 1)));
        SoakModel.Op ins = m.next(new SplittableRandom(3), ONLY_INSERT);
        assertEquals(SoakModel.Kind.INSERT, ins.kind);
        assertEquals(10, ins.local);
        assertEquals("(11,0,0)", ins.words[4]);
        assertNull(m.acknowledge(ok()));
        assertEquals(0, m.v(10));
        assertEquals(up.g1 == 0 ? 1 : 0, m.v(0));
        assertEquals("11,0,0", m.expectedRow(10));
    }

    @Test
    void deleteAndSelectExpectWhatTheModelHolds() {
        SoakModel m = seeded(5, 5);
        SplittableRandom r = new SplittableRandom(7);
        SoakModel.Op del = m.next(r, ONLY_DELETE);
        int l = del.local;
        assertEquals("id = " + m.id(l), del.words[4]);
        assertNotNull(m.acknowledge(integer(0)), "the row is there: 0 deleted is wrong");
        assertNull(m.acknowledge(integer(1)));
        assertFalse(m.present(l));
        // Deleting it again must match nothing; selecting it must find nothing.
        SoakModel.Op sel;
        do {
            sel = m.next(r, ONLY_SELECT);
        } while (sel.local != l);
        assertNotNull(m.acknowledge(rows(m.expectedRow(l))));
        assertNull(m.acknowledge(rows()));
        do {
            sel = m.next(r, ONLY_SELECT);
        } while (sel.local == l);
        String want = m.expectedRow(sel.local);
        assertNull(m.acknowledge(rows(want)));
        assertNotNull(m.acknowledge(rows(want.replaceAll(",0$", ",1"))));
        assertNotNull(m.acknowledge(new Reply('-', "ERR boom", 0, List.of())));
    }

    @Test
    void compareFindsMissingExtraAndWrongRows() {
        List<SoakModel> models = List.of(seeded(0, 3, 3), seeded(1, 3, 3));
        List<String> table = new ArrayList<>(List.of("1,0,0", "2,1,0", "3,2,0", "1001,3,0", "1002,4,0", "1003,5,0"));
        assertEquals(List.of(), Soak.compare(models, table));

        List<String> missing = new ArrayList<>(table);
        missing.remove(3);
        assertEquals(List.of("row 1001,3,0 is missing"), Soak.compare(models, missing));

        List<String> extra = new ArrayList<>(table);
        extra.add(3, "500,9,9");
        extra.add("5000,1,1");
        assertEquals(List.of("unexpected row 500,9,9", "unexpected row 5000,1,1"), Soak.compare(models, extra));

        List<String> wrong = new ArrayList<>(table);
        wrong.set(1, "2,1,7");
        assertEquals(List.of("row id 2 is 2,1,7, the model has 2,1,0"), Soak.compare(models, wrong));

        List<String> none = List.of();
        List<String> problems = Soak.compare(models, none);
        assertEquals(6, problems.size());
    }

    private static SoakModel seeded(int rows, int groups) {
        return seeded(0, rows, groups);
    }

    private static SoakModel seeded(int conn, int rows, int groups) {
        SoakModel m = new SoakModel(conn, 1000, groups, rows);
        while (m.seeding()) {
            m.nextSeed();
            assertNull(m.acknowledge(ok()));
        }
        return m;
    }
}
