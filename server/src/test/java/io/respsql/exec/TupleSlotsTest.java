package io.respsql.exec;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TupleSlotsTest {
    private static List<Integer> readBack(TupleSlots t) {
        List<Integer> out = new ArrayList<>();
        for (int c = t.first(); c >= 0; c = t.next(c)) {
            out.add(t.slot(c));
        }
        return out;
    }

    private static void check(TupleSlots t, List<Integer> in) {
        t.clear();
        for (int s : in) {
            t.add(s);
        }
        assertEquals(in.size(), t.size());
        assertEquals(in, readBack(t));
    }

    @Test
    void everySequenceReadsBackExactlyInItsOrder() {
        Random r = new Random(22);
        TupleSlots t = new TupleSlots();
        for (int round = 0; round < 200; round++) {
            int n = r.nextInt(4) == 0 ? r.nextInt(50) : TupleSlots.BITMAP_FROM + r.nextInt(3 * TupleSlots.BITMAP_FROM);
            List<Integer> in = new ArrayList<>(n);
            int slot = r.nextInt(3) == 0 ? r.nextInt(1 << 20) : 0;
            int gap = 1 + r.nextInt(r.nextBoolean() ? 2 : 64); // dense (bitmap) or sparse (list)
            int breakAt = r.nextInt(3) == 0 ? r.nextInt(n + 1) : -1; // an out-of-order slot somewhere
            for (int i = 0; i < n; i++) {
                if (i == breakAt) {
                    in.add(r.nextInt(slot + 1)); // not above the last: a duplicate or earlier slot
                    continue;
                }
                slot += r.nextInt(gap) + 1;
                in.add(slot);
            }
            if (r.nextInt(10) == 0 && n > 0) {
                in.set(r.nextInt(n), -1); // a null-extended row's slot
            }
            check(t, in);
            t.release();
        }
    }

    @Test
    void aDenseAscendingRunThatTurnsIntoABitmapKeepsItsSlotsAcrossWordsAndGrowth() {
        TupleSlots t = new TupleSlots();
        List<Integer> in = new ArrayList<>();
        for (int s = 0; s < 5 * TupleSlots.BITMAP_FROM; s++) {
            if (s % 3 != 1) {
                in.add(s);
            }
        }
        in.add(40 * TupleSlots.BITMAP_FROM); // a jump far ahead grows the bitmap
        in.add(63 + 40 * TupleSlots.BITMAP_FROM + 64);
        check(t, in);
        in.add(7); // then out of order: back to the list, order kept
        in.add(7);
        check(t, in);
        check(t, List.of());
    }

    @Test
    void sparseSlotsAfterADenseStartDoNotGrowTheBitmapPastTheList() {
        TupleSlots t = new TupleSlots();
        List<Integer> in = new ArrayList<>();
        for (int s = 0; s < TupleSlots.BITMAP_FROM; s++) {
            in.add(s); // dense: a bitmap
        }
        for (long s = TupleSlots.BITMAP_FROM + 10_000L; s <= Integer.MAX_VALUE; s += 10_000) {
            in.add((int) s); // then one slot in 10,000 up to 2^31: a bitmap of 256 MB before
        }
        long most = 0;
        t.clear();
        for (int s : in) {
            t.add(s);
            most = Math.max(most, t.heldBytes());
        }
        assertEquals(in.size(), t.size());
        assertEquals(in, readBack(t));
        // never more than the list would take (4 bytes a slot, grown by half) and a little
        assertTrue(most <= in.size() * 4L * 3 / 2 + 4096 && most <= (in.size() + 128L) * 8,
                "held " + most + " bytes for " + in.size() + " slots");
        t.release();
    }
}
