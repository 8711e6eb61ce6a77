package io.respsql.storage;

/**
 * A sequence (PostgreSQL's CREATE SEQUENCE): its options and its state, {@code lastValue} and
 * {@code isCalled} (PostgreSQL's {@code last_value}/{@code is_called}: before the first
 * {@code nextval} the next value is {@code lastValue} itself). Owned by the event loop; the
 * options are checked by the DDL before they get here. {@code ownedTable}/{@code ownedColumn}
 * (null: none) make DROP TABLE drop it; {@code identity} is 0, {@link #ALWAYS} or
 * {@link #BY_DEFAULT} for the sequence behind an identity column.
 */
public final class Sequence {
    public static final byte ALWAYS = 'a';
    public static final byte BY_DEFAULT = 'd';

    private final String name;
    /** 16, 32 or 64: smallint, integer, bigint. */
    public int bits = 64;
    public long increment = 1;
    public long min = 1;
    public long max = Long.MAX_VALUE;
    public long start = 1;
    public long cache = 1;
    public boolean cycle;
    public long lastValue = 1;
    public boolean isCalled;
    public String ownedTable;
    public String ownedColumn;
    public byte identity;

    public Sequence(String name) {
        this.name = name;
    }

    public String name() {
        return name;
    }

    /** The smallest value of a sequence of {@code bits} (16, 32, 64). */
    public static long typeMin(int bits) {
        return bits == 16 ? Short.MIN_VALUE : bits == 32 ? Integer.MIN_VALUE : Long.MIN_VALUE;
    }

    public static long typeMax(int bits) {
        return bits == 16 ? Short.MAX_VALUE : bits == 32 ? Integer.MAX_VALUE : Long.MAX_VALUE;
    }

    /** PostgreSQL's name of the sequence's type. */
    public String typeName() {
        return bits == 16 ? "smallint" : bits == 32 ? "integer" : "bigint";
    }

    /**
     * Moves to the next value (PostgreSQL's nextval): 0 and {@link #lastValue} is it; 1 when the
     * maximum was reached (no CYCLE), -1 the minimum; then nothing changed.
     */
    public int advance() {
        if (!isCalled) {
            isCalled = true;
            return 0;
        }
        long next;
        if (increment > 0) {
            if (lastValue > max - increment) { // no overflow: max - increment >= min - 1 > Long.MIN_VALUE
                if (!cycle) {
                    return 1;
                }
                next = min;
            } else {
                next = lastValue + increment;
            }
        } else {
            if (lastValue < min - increment) {
                if (!cycle) {
                    return -1;
                }
                next = max;
            } else {
                next = lastValue + increment;
            }
        }
        lastValue = next;
        return 0;
    }

    /** The owner as {@code table.column}, or null. */
    public String ownedBy() {
        return ownedTable == null ? null : ownedTable + "." + ownedColumn;
    }

    /** Whether the sequence belongs to {@code table}'s column (any case) or, {@code column} null, to any of its columns. */
    public boolean ownedBy(String table, String column) {
        return ownedTable != null && ownedTable.equalsIgnoreCase(table)
                && (column == null || ownedColumn.equalsIgnoreCase(column));
    }

    /** A copy (a snapshot's image of this moment). */
    public Sequence copy() {
        Sequence s = new Sequence(name);
        s.copyFrom(this);
        return s;
    }

    /** Takes every option and the state of {@code o} (its name excepted). */
    public void copyFrom(Sequence o) {
        bits = o.bits;
        increment = o.increment;
        min = o.min;
        max = o.max;
        start = o.start;
        cache = o.cache;
        cycle = o.cycle;
        lastValue = o.lastValue;
        isCalled = o.isCalled;
        ownedTable = o.ownedTable;
        ownedColumn = o.ownedColumn;
        identity = o.identity;
    }
}
