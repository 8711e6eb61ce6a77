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
    final TupleConsumer collect = c -> {
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
