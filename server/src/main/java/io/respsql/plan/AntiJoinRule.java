package io.respsql.plan;

import io.respsql.expr.Expression;
import io.respsql.expr.Expressions;
import io.respsql.storage.Column;

import java.util.List;

/**
 * When {@code LEFT JOIN r ... WHERE r.col IS NULL} is an anti-join: {@code r} a base table and
 * {@code col} non-NULL in every row of {@code r} that can match (declared NOT NULL or PRIMARY KEY,
 * or the column of an equality among the ON terms, which no NULL passes). Then the rows that
 * pass the filter are exactly the NULL-extended ones, and {@link io.respsql.exec.op.join.AntiJoin}
 * gives them without making the joined rows. A nullable column does not qualify: a matching
 * row holding NULL there passes the filter too.
 */
final class AntiJoinRule {
    private AntiJoinRule() {
    }

    /** The term of {@code after} (WHERE terms applied right after {@code r}'s LEFT JOIN) that makes it an anti-join, or null. */
    static Conjunct isNullTerm(Relation r, List<Conjunct> after) {
        if (!r.outerJoined || r.kind != Relation.Kind.TABLE) {
            return null;
        }
        for (Conjunct c : after) {
            Column col = Expressions.isNullTestOf(c.expr, r.number);
            if (col != null && (col.notNull() || equalityColumn(r, col))) {
                return c;
            }
        }
        return null;
    }

    private static boolean equalityColumn(Relation r, Column col) {
        for (Conjunct c : r.on) {
            for (Conjunct.Sarg sa : c.sargs) {
                if (sa.relation == r && sa.op == Conjunct.Op.EQ && sa.column == col) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Keys for the hash way ({r's columns}, {the other side's values}): only when every ON term
     * reading another relation of the block is an integer equality {@code r.col = value}, so set
     * membership of the keys decides a match exactly (r's own ON terms are its access path's
     * filter); else null.
     */
    static Expression[][] hashKeys(Relation r, long block) {
        int n = 0;
        for (Conjunct c : r.on) {
            if ((c.rels & block & ~r.bit()) != 0) {
                n++;
            }
        }
        if (n == 0) {
            return null;
        }
        Expression[] inner = new Expression[n];
        Expression[] outer = new Expression[n];
        int i = 0;
        for (Conjunct c : r.on) {
            if ((c.rels & block & ~r.bit()) == 0) {
                continue;
            }
            Conjunct.Sarg eq = null;
            for (Conjunct.Sarg sa : c.sargs) {
                if (sa.relation == r && sa.op == Conjunct.Op.EQ && (sa.valueRels & r.bit()) == 0) {
                    eq = sa;
                    break;
                }
            }
            if (eq == null || !SqlTypes.of(eq.column.type()).isInteger() || !eq.values[0].type().isInteger()) {
                return null;
            }
            inner[i] = Expressions.column(eq.column, r.number, eq.column.name());
            outer[i++] = eq.values[0];
        }
        return new Expression[][]{inner, outer};
    }
}
