package io.respsql.plan;

import io.respsql.expr.Expression;
import io.respsql.storage.Column;

import java.util.ArrayList;
import java.util.List;

/**
 * One AND term of a WHERE or ON condition, analysed once (as SQLite's WhereTerm): the bound
 * condition, the relations it reads, its source text (EXPLAIN), and the index-usable forms it
 * has ({@code col = e}, {@code col IN (...)}, ranges, BETWEEN), one per column side.
 */
final class Conjunct {
    final Expression expr;
    /** Relations read (bits), correlated references of its subqueries included. */
    final long rels;
    final String text;
    final List<Sarg> sargs = new ArrayList<>();
    /** An OR: each branch's AND terms, analysed like conjuncts (an index per branch makes a union of paths). */
    List<List<Conjunct>> orBranches;

    Conjunct(Expression expr, String text) {
        this.expr = expr;
        this.rels = expr.relations();
        this.text = text;
    }

    enum Op { EQ, IN, LT, LE, GT, GE, BETWEEN }

    /**
     * {@code column op values}: values are bound expressions of other relations (or none:
     * constants); BETWEEN has two (low, high), IN one per list entry.
     */
    static final class Sarg {
        final Conjunct owner;
        final Relation relation;
        final Column column;
        final Op op;
        final Expression[] values;
        final long valueRels;
        /**
         * The conjunct is exactly {@code column op values[0]}, compared as the comparison itself
         * compares (no conversion of either side on the way): a hash join on it as a key need not
         * test it again.
         */
        boolean exact;
        /**
         * Only part of the conjunct (one bound of a BETWEEN whose other bound reads the row): an
         * index may be searched by it, but the conjunct must still be tested on every row found.
         */
        boolean partial;

        Sarg(Conjunct owner, Relation relation, Column column, Op op, Expression[] values) {
            this.owner = owner;
            this.relation = relation;
            this.column = column;
            this.op = op;
            this.values = values;
            long m = 0;
            for (Expression v : values) {
                m |= v.relations();
            }
            this.valueRels = m;
        }
    }
}
