package io.respsql.exec.write;

/**
 * One value about to be stored in a column, already converted to the column's type: NULL, a
 * long (INT, BIGINT, BOOLEAN, DATE, TIMESTAMP), a double (FLOAT) or text bytes. Mutable and
 * reused, so converting a value allocates nothing beyond text that must outlive its source.
 */
public final class Cell {
    boolean isNull;
    long l;
    double d;
    /**
     * TEXT: the bytes {@code text[textOff, textOff + textLen)}; a whole array owned by this cell
     * (a copy or a constant) except when {@link PendingRows#get} fills it with a slice of its buffer.
     */
    byte[] text;
    int textOff;
    int textLen;

    public void setNull() {
        isNull = true;
        text = null;
    }

    void setLong(long v) {
        isNull = false;
        l = v;
        d = v;
    }

    void setDouble(double v) {
        isNull = false;
        d = v;
    }

    public void setText(byte[] b) {
        isNull = false;
        text = b;
        textOff = 0;
        textLen = b.length;
    }

    public void copyFrom(Cell o) {
        isNull = o.isNull;
        l = o.l;
        d = o.d;
        text = o.text;
        textOff = o.textOff;
        textLen = o.textLen;
    }
}
