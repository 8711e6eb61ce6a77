package io.respsql.expr;

import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;

/**
 * {@code x [NOT] LIKE pattern [ESCAPE c]}: {@code %} any run of characters, {@code _} one UTF-8
 * character; ASCII letters match case-insensitively, other characters exactly (SQLite's default
 * LIKE; PostgreSQL's LIKE is case-sensitive). A constant pattern is compiled once; another is
 * compiled per row into arrays the node owns. Non-TEXT operands are matched by their text form.
 * In PostgreSQL's dialect LIKE is case-sensitive ({@code fold} false; ILIKE folds ASCII case) and
 * a backslash escapes when no ESCAPE is written.
 */
final class Like extends Expression {
    private static final byte LIT = 0;
    private static final byte ONE = 1;
    private static final byte ANY = 2;

    final Expression operand;
    final Expression pattern;
    final Expression escape;
    final boolean negated;
    private final TextArg text;
    private final TextArg pat;
    private final TextArg esc;
    private final boolean constantPattern;
    /** Compiled pattern: kinds[i] with bytes[i] (lower-cased ASCII) for literals. */
    private byte[] kinds = new byte[32];
    private byte[] bytes = new byte[32];
    private int length;
    /** The pattern ends with a lone escape character: it matches nothing. */
    private boolean broken;
    /** ASCII letters match either case (SQLite's LIKE, ILIKE); PostgreSQL's LIKE: false. */
    final boolean fold;

    /** Written as ILIKE (for describe). */
    final boolean ilike;

    Like(Expression operand, Expression pattern, Expression escape, boolean negated) {
        this(operand, pattern, escape, negated, true, false);
    }

    /** Reentrant: the pattern was compiled once, at construction. */
    boolean constantPatternCompiled() {
        return constantPattern;
    }

    Like(Expression operand, Expression pattern, Expression escape, boolean negated, boolean fold, boolean ilike) {
        super(SqlType.BOOLEAN);
        this.fold = fold;
        this.ilike = ilike;
        this.operand = operand;
        this.pattern = pattern;
        this.escape = escape;
        this.negated = negated;
        this.text = new TextArg(operand);
        this.pat = new TextArg(pattern);
        this.esc = escape == null ? null : new TextArg(escape);
        this.constantPattern = pattern.isConstant() && (escape == null || escape.isConstant());
        if (constantPattern) {
            EvalContext ctx = new EvalContext(1);
            if (!compile(ctx)) {
                // a NULL pattern or escape: every row is NULL; compile() left broken
                length = -1;
            }
        }
    }

    /** Compiles the current pattern; false when the pattern or the escape is NULL. */
    private boolean compile(EvalContext ctx) {
        int escStart = -1;
        int escLen = 0;
        byte[] e = null;
        if (esc != null) {
            e = esc.eval(ctx);
            if (ctx.isNull) {
                return false;
            }
            escStart = ctx.textOffset;
            escLen = ctx.textLength;
            if (escLen == 0 || TextBuf.chars(e, escStart, escLen) != 1) {
                throw new SqlException(SqlState.INVALID_ESCAPE_SEQUENCE, "ESCAPE expression must be a single character");
            }
        }
        byte[] p = pat.eval(ctx);
        if (ctx.isNull) {
            return false;
        }
        int off = ctx.textOffset;
        int end = off + ctx.textLength;
        if (kinds.length < ctx.textLength) {
            kinds = new byte[Math.max(ctx.textLength, kinds.length * 2)];
            bytes = new byte[kinds.length];
        }
        int n = 0;
        broken = false;
        for (int i = off; i < end; ) {
            if (escLen > 0 && i + escLen <= end && java.util.Arrays.equals(p, i, i + escLen, e, escStart, escStart + escLen)) {
                i += escLen;
                if (i >= end) {
                    broken = true;
                    break;
                }
                int cl = Math.min(TextBuf.charLen(p[i]), end - i);
                for (int k = 0; k < cl; k++) {
                    kinds[n] = LIT;
                    bytes[n++] = fold ? TextBuf.lowerAscii(p[i + k]) : p[i + k];
                }
                i += cl;
                continue;
            }
            byte b = p[i];
            if (b == '%') {
                if (n == 0 || kinds[n - 1] != ANY) {
                    kinds[n++] = ANY;
                }
            } else if (b == '_') {
                kinds[n++] = ONE;
            } else {
                kinds[n] = LIT;
                bytes[n++] = fold ? TextBuf.lowerAscii(b) : b;
            }
            i++;
        }
        length = n;
        return true;
    }

    @Override
    public long evalLong(EvalContext ctx) {
        if (!constantPattern && !compile(ctx)) {
            ctx.isNull = true;
            return 0;
        }
        if (length < 0) {
            ctx.isNull = true;
            return 0;
        }
        byte[] t = text.eval(ctx);
        if (ctx.isNull) {
            return 0;
        }
        boolean m = !broken && matches(t, ctx.textOffset, ctx.textOffset + ctx.textLength);
        return m != negated ? 1 : 0;
    }

    /**
     * The batch form for a plain TEXT column of the relation and a constant pattern that is a
     * literal prefix then a single trailing {@code %} ({@code 'user123%'}): the row's bytes are
     * compared in place with the prefix (ASCII case folded, as {@link #matches}), no per-row
     * call chain. Other patterns go row by row.
     */
    @Override
    public int filter(EvalContext ctx, int relation, int[] sel, int n) {
        io.respsql.storage.Column col = operand.plainColumn(relation);
        if (!constantPattern || broken || length < 1 || !(col instanceof io.respsql.storage.TextColumn)
                || kinds[length - 1] != ANY) {
            return super.filter(ctx, relation, sel, n);
        }
        int plen = length - 1;
        for (int i = 0; i < plen; i++) {
            if (kinds[i] != LIT) {
                return super.filter(ctx, relation, sel, n);
            }
        }
        io.respsql.storage.TextColumn c = (io.respsql.storage.TextColumn) col;
        byte[] p = bytes;
        boolean nulls = c.mayHaveNulls();
        boolean want = !negated;
        int kept = 0;
        for (int i = 0; i < n; i++) {
            int s = sel[i];
            if (nulls && c.isNull(s)) {
                continue; // NULL LIKE / NOT LIKE: unknown, never kept
            }
            long ref = c.refOf(s);
            boolean m;
            if (ref == io.respsql.storage.TextColumn.EMPTY_REF) {
                m = plen == 0;
            } else {
                byte[] a = c.refBytes(ref);
                int off = io.respsql.storage.TextColumn.refOffset(ref);
                m = io.respsql.storage.TextColumn.refLength(a, ref) >= plen;
                for (int j = 0; m && j < plen; j++) {
                    m = (fold ? TextBuf.lowerAscii(a[off + j]) : a[off + j]) == p[j];
                }
            }
            if (m == want) {
                sel[kept++] = s;
            }
        }
        return kept;
    }

    /** Two-pointer glob match with backtracking to the last {@code %}, by whole characters. */
    private boolean matches(byte[] t, int ti, int tEnd) {
        byte[] kinds = this.kinds;
        byte[] bytes = this.bytes;
        int pn = length;
        int p = 0;
        int starP = -1;
        int starT = 0;
        while (ti < tEnd) {
            if (p < pn && kinds[p] == LIT && bytes[p] == (fold ? TextBuf.lowerAscii(t[ti]) : t[ti])) {
                p++;
                ti++;
            } else if (p < pn && kinds[p] == ONE) {
                p++;
                ti += TextBuf.charLen(t[ti]);
            } else if (p < pn && kinds[p] == ANY) {
                starP = ++p;
                starT = ti;
            } else if (starP >= 0) {
                p = starP;
                starT += TextBuf.charLen(t[starT]);
                ti = starT;
            } else {
                return false;
            }
        }
        if (ti > tEnd) {
            return false;
        }
        while (p < pn && kinds[p] == ANY) {
            p++;
        }
        return p == pn;
    }

    @Override
    public long relations() {
        return Eval.relations(operand, pattern, escape);
    }

    @Override
    public boolean isConstant() {
        return Eval.allConstant(operand, pattern, escape);
    }

    @Override
    public String describe() {
        String verb = ilike ? "ILIKE " : "LIKE ";
        return "(" + operand.describe() + (negated ? " NOT " : " ") + verb + pattern.describe()
                + (escape == null ? "" : " ESCAPE " + escape.describe()) + ")";
    }
}
