package io.respsql.exec.op.window;

/** The window functions {@link WindowOperator} computes (PostgreSQL's names and semantics). */
public enum WindowFunctionKind {
    ROW_NUMBER, RANK, DENSE_RANK, NTILE, LAG, LEAD, FIRST_VALUE, LAST_VALUE,
    SUM, AVG,
    /** {@code COUNT(*)}: rows in the frame. */
    COUNT_STAR,
    /** {@code COUNT(x)}: non-NULL values in the frame. */
    COUNT,
    MIN, MAX,
    NTH_VALUE, PERCENT_RANK, CUME_DIST,
    /** PostgreSQL's statistical aggregates as window functions (VARIANCE is VAR_SAMP, STDDEV is STDDEV_SAMP). */
    VAR_POP, VAR_SAMP, VARIANCE, STDDEV_POP, STDDEV_SAMP, STDDEV;

    /** VAR_POP, VAR_SAMP, VARIANCE, STDDEV_POP, STDDEV_SAMP, STDDEV. */
    public boolean statistical() {
        return ordinal() >= VAR_POP.ordinal();
    }

    /** Whether the function reads a frame (the others ignore it, as in PostgreSQL). */
    public boolean usesFrame() {
        switch (this) {
            case FIRST_VALUE:
            case LAST_VALUE:
            case NTH_VALUE:
            case VAR_POP:
            case VAR_SAMP:
            case VARIANCE:
            case STDDEV_POP:
            case STDDEV_SAMP:
            case STDDEV:
            case SUM:
            case AVG:
            case COUNT_STAR:
            case COUNT:
            case MIN:
            case MAX:
                return true;
            default:
                return false;
        }
    }

    /** The SQL spelling, for messages and EXPLAIN. */
    public String sqlName() {
        return this == COUNT_STAR ? "COUNT" : name();
    }
}
