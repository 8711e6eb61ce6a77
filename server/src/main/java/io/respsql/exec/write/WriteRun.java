package io.respsql.exec.write;

import io.respsql.exec.op.TupleConsumer;
import io.respsql.expr.EvalContext;
import io.respsql.index.LongIntBTree;
import io.respsql.storage.TableIndex;
import it.unimi.dsi.fastutil.ints.IntArrayList;

/**
 * The state of one run of an UPDATE or DELETE operator ({@link UpdateOperator}, {@link
 * DeleteOperator}): the evaluation context (with the read operators' run state kept in it), this
 * run's key bounds, the index cursor, the row list the rows are collected into and an UPDATE's
 * new values. The operators
 * hold none of it; a plan keeps one for its runs, which never overlap (writes run on the event
 * loop only), so a cached point UPDATE allocates none of it per request.
 */
final class WriteRun {
    final EvalContext ctx;
    /** This run's key bounds ({@link RowSource.Shape#KEY_RANGE}), inclusive. */
    final long[] bounds = new long[2];
    private LongIntBTree.Cursor cursor;
    /** The tree {@link #cursor} walks: an index's tree is swapped by a rebuild or TRUNCATE. */
    private LongIntBTree cursorTree;
    /** Where {@link #collect} puts the slot of relation 0 (the table) of each tuple. */
    private IntArrayList rows;
    /** A join's other relations ({@link RowSource#joined}); null when the rows are the table's alone. */
    private int[] joinedRelations;
    /** Per row collected (in order): the slots of the other relations, {@code joinedRelations.length} each. */
    IntArrayList joined;
    private it.unimi.dsi.fastutil.ints.IntOpenHashSet seen;
    final TupleConsumer collect = c -> {
        if (this.joinedRelations != null) {
            return collectJoined(c.slots);
        }
        rows.add(c.slots[0]);
        return true;
    };


    /** Per assignment of an UPDATE: the cell its value is in for the row at hand ({@link Assignment#newValue}). */
    Cell[] values;

    WriteRun(int relations) {
        ctx = new EvalContext(relations);
    }

    /** Readies the state for a run with {@code params} (null: none). */
    EvalContext start(io.respsql.expr.ParamValues params) {
        ctx.reset();
        ctx.params = params;
        return ctx;
    }

    /**
     * Collects into {@code into} through {@link #collect}; null after the run, so a cached plan
     * keeps no engine row buffer alive (the engine replaces a buffer a big statement grew).
     */
    void collectInto(IntArrayList into) {
        rows = into;
        if (into == null) {
            // the join's collected slots stay for the write loop (at), but the list is let go next time
        } else {
            joinedRelations = null;
        }
    }

    /** Collects a join's rows into {@code into}, each table row once, the other relations' slots into {@link #joined}. */
    void collectJoined(IntArrayList into, int[] relations) {
        rows = into;
        joinedRelations = relations;
        if (joined == null) {
            joined = new IntArrayList();
            seen = new it.unimi.dsi.fastutil.ints.IntOpenHashSet();
        }
        joined.clear();
        seen.clear();
    }

    private boolean collectJoined(int[] slots) {
        if (seen.add(slots[0])) {
            rows.add(slots[0]);
            for (int r : joinedRelations) {
                joined.add(slots[r]);
            }
        }
        return true;
    }

    /** Rows (and their EXCLUDED rows) handed over for the next run ({@link RowSource#given}). */
    private IntArrayList givenRows;
    private IntArrayList givenJoined;

    void give(IntArrayList rows, IntArrayList joinedSlots) {
        givenRows = rows;
        givenJoined = joinedSlots;
    }

    void takeGiven(IntArrayList into, int[] relations) {
        into.clear();
        into.addAll(givenRows);
        joinedRelations = relations;
        joined = givenJoined;
    }

    /** Puts row {@code i} of the collected rows {@code r} into {@code ctx}: the table's slot, and a join's others. */
    void at(EvalContext ctx, int[] r, int i) {
        int[] slots = ctx.slots;
        slots[0] = r[i];
        int[] rel = joinedRelations;
        if (rel != null) {
            int[] j = joined.elements();
            for (int k = 0, at = i * rel.length; k < rel.length; k++) {
                slots[rel[k]] = j[at + k];
            }
        }
    }

    /** A cursor of {@code index}'s current tree, reused by this plan's runs while the tree stays. */
    LongIntBTree.Cursor cursor(TableIndex index) {
        LongIntBTree tree = index.tree();
        if (cursor == null || cursorTree != tree) {
            cursor = tree.cursor();
            cursorTree = tree;
        }
        return cursor;
    }

    /** Whether a row list is referenced (tests: none after a run). */
    boolean holdsRows() {
        return rows != null;
    }
}
