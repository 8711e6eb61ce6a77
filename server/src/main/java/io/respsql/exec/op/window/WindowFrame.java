package io.respsql.exec.op.window;

import io.respsql.expr.Expression;
import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;
import io.respsql.sql.tree.Expr.BoundKind;
import io.respsql.sql.tree.Expr.Exclusion;
import io.respsql.sql.tree.Expr.FrameUnit;

/**
 * A window frame: {@code ROWS|RANGE|GROUPS BETWEEN start AND end [EXCLUDE ...]}. Offsets ({@code n PRECEDING} /
 * {@code n FOLLOWING}) are constant expressions, evaluated once per run; the others are null.
 * A frame written with only a start ({@code ROWS 2 PRECEDING}) ends at {@code CURRENT ROW}
 * ({@link #startingAt}). The constructor applies PostgreSQL's static checks; the offsets' values
 * (not NULL, not negative) are checked when a run evaluates them.
 */
public record WindowFrame(FrameUnit unit, BoundKind startKind, Expression startOffset, BoundKind endKind,
                          Expression endOffset, Exclusion exclude) {
    /**
     * PostgreSQL's default: {@code RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW}. Without an
     * ORDER BY every row of a partition is a peer of every other, so this is the whole partition.
     */
    public static final WindowFrame DEFAULT =
            new WindowFrame(FrameUnit.RANGE, BoundKind.UNBOUNDED_PRECEDING, null, BoundKind.CURRENT_ROW, null);

    /** A frame without EXCLUDE. */
    public WindowFrame(FrameUnit unit, BoundKind startKind, Expression startOffset, BoundKind endKind, Expression endOffset) {
        this(unit, startKind, startOffset, endKind, endOffset, Exclusion.NO_OTHERS);
    }

    public WindowFrame {
        if (unit == null || startKind == null || endKind == null) {
            throw new IllegalArgumentException("frame unit and bounds are required");
        }
        if (exclude == null) {
            exclude = Exclusion.NO_OTHERS;
        }
        if (startKind == BoundKind.UNBOUNDED_FOLLOWING) {
            throw new SqlException(SqlState.WINDOWING_ERROR, "frame start cannot be UNBOUNDED FOLLOWING");
        }
        if (endKind == BoundKind.UNBOUNDED_PRECEDING) {
            throw new SqlException(SqlState.WINDOWING_ERROR, "frame end cannot be UNBOUNDED PRECEDING");
        }
        if (startKind == BoundKind.CURRENT_ROW && endKind == BoundKind.PRECEDING) {
            throw new SqlException(SqlState.WINDOWING_ERROR, "frame starting from current row cannot have preceding rows");
        }
        if (startKind == BoundKind.FOLLOWING && (endKind == BoundKind.PRECEDING || endKind == BoundKind.CURRENT_ROW)) {
            throw new SqlException(SqlState.WINDOWING_ERROR, "frame starting from following row cannot have preceding rows");
        }
        checkOffset(startKind, startOffset, "starting");
        checkOffset(endKind, endOffset, "ending");
    }

    /** {@code ROWS|RANGE start}: the frame ends at the current row (its last peer for RANGE). */
    public static WindowFrame startingAt(FrameUnit unit, BoundKind startKind, Expression startOffset) {
        return new WindowFrame(unit, startKind, startOffset, BoundKind.CURRENT_ROW, null);
    }

    /** {@code ROWS|RANGE|GROUPS start [EXCLUDE ...]}. */
    public static WindowFrame startingAt(FrameUnit unit, BoundKind startKind, Expression startOffset, Exclusion exclude) {
        return new WindowFrame(unit, startKind, startOffset, BoundKind.CURRENT_ROW, null, exclude);
    }

    /** Rows of the frame are left out around the current row ({@code EXCLUDE} other than NO OTHERS). */
    public boolean excludes() {
        return exclude != Exclusion.NO_OTHERS;
    }

    private static void checkOffset(BoundKind kind, Expression offset, String which) {
        boolean wanted = kind == BoundKind.PRECEDING || kind == BoundKind.FOLLOWING;
        if (wanted != (offset != null)) {
            throw new IllegalArgumentException("frame " + which + " offset " + (wanted ? "missing" : "not expected") + " for " + kind);
        }
        if (offset != null) {
            if (!offset.isConstant()) {
                throw new SqlException(SqlState.INVALID_COLUMN_REFERENCE, "frame " + which + " offset must not contain variables: " + offset.describe());
            }
            if (!offset.type().isNumeric() && offset.type() != io.respsql.expr.SqlType.NULL
                    && offset.type() != io.respsql.expr.SqlType.INTERVAL && offset.type() != io.respsql.expr.SqlType.NUMERIC
                    && offset.type() != io.respsql.expr.SqlType.TEXT) {
                throw new SqlException(SqlState.DATATYPE_MISMATCH, "frame " + which + " offset must be a number, got " + offset.type().sqlName()
                        + ": " + offset.describe());
            }
        }
    }

    /** Either bound is {@code n PRECEDING|FOLLOWING}. */
    public boolean hasOffset() {
        return startOffset != null || endOffset != null;
    }

    /** The frame only grows: it starts at the partition's first row (running aggregates, no removal). */
    public boolean startsUnbounded() {
        return startKind == BoundKind.UNBOUNDED_PRECEDING;
    }

    public String describe() {
        return unit + " BETWEEN " + bound(startKind, startOffset) + " AND " + bound(endKind, endOffset)
                + (excludes() ? " EXCLUDE " + exclude.name().replace('_', ' ') : "");
    }

    private static String bound(BoundKind kind, Expression offset) {
        switch (kind) {
            case UNBOUNDED_PRECEDING:
                return "UNBOUNDED PRECEDING";
            case PRECEDING:
                return offset.describe() + " PRECEDING";
            case CURRENT_ROW:
                return "CURRENT ROW";
            case FOLLOWING:
                return offset.describe() + " FOLLOWING";
            default:
                return "UNBOUNDED FOLLOWING";
        }
    }
}
