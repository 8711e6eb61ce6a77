package io.respsql.it.diff;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The random generator: schemas, rows and statements over the grammar RespSQL and PostgreSQL
 * 15 both accept, kept away from their documented differences (no division by zero, no
 * {@code %} on FLOAT, no CAST of a fraction to an integer, lowercase text only so LIKE's case
 * rule does not matter, no TEXT beside a number, small values so INT arithmetic cannot
 * overflow). Every column reference is qualified by its relation's alias.
 */
final class Gen {
    enum Type {
        INT, BIGINT, FLOAT, TEXT;

        boolean numeric() {
            return this != TEXT;
        }

        String pg() {
            return switch (this) {
                case INT -> "INTEGER";
                case BIGINT -> "BIGINT";
                case FLOAT -> "DOUBLE PRECISION";
                case TEXT -> "TEXT";
            };
        }
    }

    /** An expression's kind: integer, float or text (INT and BIGINT are both integers). */
    enum Kind {
        I, F, T
    }

    static Kind kindOf(Type t) {
        return t == Type.TEXT ? Kind.T : t == Type.FLOAT ? Kind.F : Kind.I;
    }

    record Col(String name, Type type) {
    }

    static final class Table {
        String name;
        final List<Col> cols = new ArrayList<>();
        Col pk;
        /** Columns declared NOT NULL (an index on one may serve ORDER BY in key order). */
        final java.util.Set<String> notNull = new java.util.HashSet<>();
        /** Columns of a UNIQUE index (each a single column): kept on the write oracle's copy as well. */
        final List<String> uniqueIndexDdl = new ArrayList<>();
        boolean view;
        /** Rows inserted (a bound for views): keeps cross joins of the larger tables out. */
        int rows;

        Table(String name) {
            this.name = name;
        }
    }

    /** A relation in a FROM clause: a table or view under an alias. */
    record Ref(Table table, String alias) {
    }

    /** A column in scope: alias.column and its type. */
    record Scoped(String text, Type type) {
    }

    final Random r;
    final List<Table> tables = new ArrayList<>();
    /** Set while a HAVING condition is generated: no subqueries there (an aggregate inside one is another matter). */
    boolean noSubqueries;
    private int aliases;

    Gen(Random r) {
        this.r = r;
    }

    boolean chance(int percent) {
        return r.nextInt(100) < percent;
    }

    <T> T pick(List<T> list) {
        return list.get(r.nextInt(list.size()));
    }

    String alias() {
        return "s" + (aliases++);
    }

    void resetAliases() {
        aliases = 0;
    }

    // ---- schema and rows ------------------------------------------------------------------

    /** A table's CREATE TABLE; the table is remembered. */
    Table newTable(String name) {
        Table t = new Table(name);
        int n = 2 + r.nextInt(4);
        for (int i = 0; i < n; i++) {
            t.cols.add(new Col("c" + i, Type.values()[r.nextInt(4)]));
        }
        if (chance(60)) {
            Col c = t.cols.get(0);
            if (c.type == Type.FLOAT) { // keys of a FLOAT primary key are fine, but keep them mostly integers
                c = new Col(c.name, Type.INT);
                t.cols.set(0, c);
            }
            t.pk = c;
        }
        for (Col c : t.cols) {
            if (c != t.pk && chance(15)) {
                t.notNull.add(c.name);
            }
        }
        tables.add(t);
        return t;
    }

    String createTable(Table t, boolean forPg) {
        StringBuilder sb = new StringBuilder("CREATE TABLE ").append(t.name).append(" (");
        for (int i = 0; i < t.cols.size(); i++) {
            Col c = t.cols.get(i);
            sb.append(i == 0 ? "" : ", ").append(c.name).append(' ').append(forPg ? c.type.pg() : c.type.name());
            if (c == t.pk) {
                sb.append(" PRIMARY KEY");
            } else if (t.notNull.contains(c.name)) {
                sb.append(" NOT NULL");
            }
        }
        return sb.append(')').toString();
    }

    /** A value for a column: small domains, so that duplicates and equal keys are common. */
    String value(Type type, boolean nullable) {
        if (nullable && chance(15)) {
            return "NULL";
        }
        return literal(type);
    }

    String literal(Type type) {
        return switch (type) {
            case INT -> Integer.toString(r.nextInt(30) - 5);
            case BIGINT -> chance(15) ? Long.toString((r.nextBoolean() ? 1L : -1L) * (3_000_000_000L + r.nextInt(1000)))
                    : Integer.toString(r.nextInt(30) - 5);
            case FLOAT -> floatLiteral();
            case TEXT -> "'" + text() + "'";
        };
    }

    /** Quarters between -5 and 20: exact in binary, so sums are the same in any order. */
    String floatLiteral() {
        int q = r.nextInt(100) - 20;
        double d = q / 4.0;
        String s = Double.toString(d);
        return s.endsWith(".0") && chance(50) ? s.substring(0, s.length() - 2) + ".0" : s;
    }

    String text() {
        String[] pool = {"", "a", "b", "c", "ab", "ba", "abc", "b_c", "a%", "x y", "bb", "cab"};
        return pool[r.nextInt(pool.length)];
    }

    /** Row {@code row} of {@code rows}: in a larger table the primary key runs through distinct values. */
    String insert(Table t, int row, int rows) {
        StringBuilder sb = new StringBuilder("INSERT INTO ").append(t.name).append(" VALUES (");
        for (int i = 0; i < t.cols.size(); i++) {
            Col c = t.cols.get(i);
            String v = c == t.pk && rows > 30 ? (c.type == Type.TEXT ? "'k" + row + "'" : Integer.toString(row - 5))
                    : value(c.type, c != t.pk && !t.notNull.contains(c.name));
            sb.append(i == 0 ? "" : ", ").append(v);
        }
        return sb.append(')').toString();
    }

    /** A CREATE INDEX: single column mostly, sometimes UNIQUE, multi-column or DESC. */
    String createIndex(Table t, String name) {
        boolean unique = chance(20);
        List<Col> cols = new ArrayList<>(t.cols);
        java.util.Collections.shuffle(cols, r);
        int n = chance(75) ? 1 : 2;
        if (unique) {
            n = 1;
        }
        StringBuilder sb = new StringBuilder("CREATE ").append(unique ? "UNIQUE " : "").append("INDEX ").append(name)
                .append(" ON ").append(t.name).append(" (");
        for (int i = 0; i < n && i < cols.size(); i++) {
            sb.append(i == 0 ? "" : ", ").append(cols.get(i).name).append(chance(20) ? " DESC" : "");
        }
        String ddl = sb.append(')').toString();
        return ddl;
    }

    // ---- FROM clauses -----------------------------------------------------------------------

    /** A FROM clause and the columns it brings into scope. */
    record From(String sql, List<Scoped> scope, List<Ref> refs) {
    }

    From from(boolean allowJoin) {
        List<Table> readable = tables;
        if (!allowJoin || chance(55)) {
            Ref a = new Ref(pick(readable), alias());
            return new From(a.table.name + " AS " + a.alias, scope(a), List.of(a));
        }
        Ref a = new Ref(pick(readable), alias());
        Ref b = new Ref(pick(readable), alias());
        List<Scoped> scope = new ArrayList<>(scope(a));
        scope.addAll(scope(b));
        String left = relation(a);
        String right = relation(b);
        boolean small = (long) Math.max(1, a.table.rows) * Math.max(1, b.table.rows) <= 5000;
        int kind = small ? r.nextInt(11) : 2 + r.nextInt(9);
        String sql;
        if (kind < 1) {
            sql = left + " CROSS JOIN " + right;
        } else if (kind < 2) {
            sql = left + ", " + right;
        } else {
            String on = joinCondition(a, b, scope);
            sql = left + (kind < 6 ? " JOIN " : kind < 9 ? " LEFT JOIN " : kind < 10 ? " RIGHT JOIN " : " INNER JOIN ")
                    + right + " ON " + on;
        }
        List<Ref> refs = new ArrayList<>(List.of(a, b));
        Table third = pick(readable);
        if (chance(25) && small && (long) Math.max(1, a.table.rows) * Math.max(1, b.table.rows) * Math.max(1, third.rows) <= 50_000) {
            Ref c = new Ref(third, alias()); // a third relation
            List<Scoped> sc = scope(c);
            Ref other = chance(50) ? a : b;
            List<Scoped> both = new ArrayList<>(scope);
            both.addAll(sc);
            String on = joinCondition(other, c, both);
            sql += (chance(60) ? " JOIN " : " LEFT JOIN ") + relation(c) + " ON " + on;
            scope = both;
            refs.add(c);
        }
        return new From(sql, scope, refs);
    }

    /** A table or view under its alias, now and then as a derived table over it. */
    private String relation(Ref ref) {
        if (chance(12)) {
            String inner = alias();
            StringBuilder sb = new StringBuilder("(SELECT ");
            for (int i = 0; i < ref.table.cols.size(); i++) {
                Col c = ref.table.cols.get(i);
                sb.append(i == 0 ? "" : ", ").append(inner).append('.').append(c.name).append(" AS ").append(c.name);
            }
            Ref in = new Ref(ref.table, inner);
            sb.append(" FROM ").append(ref.table.name).append(" AS ").append(inner);
            if (chance(50)) {
                sb.append(" WHERE ").append(predicate(scope(in), 1));
            }
            return sb.append(") AS ").append(ref.alias).toString();
        }
        return ref.table.name + " AS " + ref.alias;
    }

    private String joinCondition(Ref a, Ref b, List<Scoped> scope) {
        // mostly an equality of like-kinded columns (hash and index joins), sometimes any predicate
        boolean small = (long) Math.max(1, a.table.rows) * Math.max(1, b.table.rows) <= 5000;
        if (chance(75) || !small) {
            for (int tries = 0; tries < 8; tries++) {
                Col ca = pick(a.table.cols);
                Col cb = pick(b.table.cols);
                if ((ca.type == Type.TEXT) == (cb.type == Type.TEXT)) {
                    String eq = a.alias + "." + ca.name + " = " + b.alias + "." + cb.name;
                    return chance(30) ? eq + " AND " + predicate(scope, 1) : eq;
                }
            }
        }
        return predicate(scope, 2);
    }

    static List<Scoped> scope(Ref ref) {
        List<Scoped> s = new ArrayList<>();
        for (Col c : ref.table.cols) {
            s.add(new Scoped(ref.alias + "." + c.name, c.type));
        }
        return s;
    }

    // ---- expressions ------------------------------------------------------------------------

    List<Scoped> ofKind(List<Scoped> scope, Kind k) {
        List<Scoped> out = new ArrayList<>();
        for (Scoped s : scope) {
            if (kindOf(s.type) == k || (k == Kind.F && kindOf(s.type) == Kind.I)) {
                out.add(s);
            }
        }
        return out;
    }

    /** A numeric expression (integers when {@code k} is I). */
    String num(List<Scoped> scope, Kind k, int depth) {
        List<Scoped> cols = k == Kind.I ? ofKind(scope, Kind.I) : numericCols(scope);
        int choice = r.nextInt(depth <= 0 ? 3 : 12);
        if (choice < 2 && !cols.isEmpty()) {
            return pick(cols).text;
        }
        if (choice < 3) {
            return k == Kind.I ? literal(Type.INT) : chance(50) ? floatLiteral() : literal(Type.INT);
        }
        return switch (choice) {
            case 3 -> "(" + num(scope, k, depth - 1) + " + " + num(scope, k, depth - 1) + ")";
            case 4 -> "(" + num(scope, k, depth - 1) + " - " + num(scope, k, depth - 1) + ")";
            case 5 -> "(" + num(scope, k, depth - 1) + " * " + (r.nextInt(7) - 3) + ")";
            case 6 -> k == Kind.I && chance(50) ? "(" + num(scope, k, depth - 1) + " % " + (r.nextInt(5) + 2) + ")"
                    : "(" + num(scope, k, 0) + " / " + (r.nextInt(5) + 2) + ")"; // a column or literal: never PostgreSQL's numeric SUM
            case 7 -> "ABS(" + num(scope, k, depth - 1) + ")";
            case 8 -> "CASE WHEN " + predicate(scope, depth - 1) + " THEN " + num(scope, k, depth - 1) + " ELSE "
                    + num(scope, k, depth - 1) + " END";
            case 9 -> "COALESCE(" + num(scope, k, depth - 1) + ", " + (k == Kind.I ? literal(Type.INT) : floatLiteral()) + ")";
            case 10 -> noSubqueries ? num(scope, k, 0) : scalarSubquery(scope, k);
            default -> "-(" + (cols.isEmpty() ? literal(Type.INT) : pick(cols).text) + ")"; // never "--", a comment
        };
    }

    List<Scoped> numericCols(List<Scoped> scope) {
        List<Scoped> out = new ArrayList<>();
        for (Scoped s : scope) {
            if (s.type.numeric()) {
                out.add(s);
            }
        }
        return out;
    }

    String text(List<Scoped> scope, int depth) {
        List<Scoped> cols = ofKind(scope, Kind.T);
        int choice = r.nextInt(depth <= 0 ? 3 : 7);
        if (choice < 2 && !cols.isEmpty()) {
            return pick(cols).text;
        }
        return switch (choice) {
            case 3 -> "(" + text(scope, depth - 1) + " || '" + text() + "')";
            case 4 -> "SUBSTR(" + text(scope, depth - 1) + ", " + (1 + r.nextInt(2)) + ", " + (1 + r.nextInt(2)) + ")";
            case 5 -> "COALESCE(" + text(scope, depth - 1) + ", '" + text() + "')";
            default -> "'" + text() + "'";
        };
    }

    /** An uncorrelated or correlated one-value subquery (an aggregate, so at most one row). */
    String scalarSubquery(List<Scoped> outer, Kind k) {
        Table t = pick(tables);
        Ref ref = new Ref(t, alias());
        List<Scoped> inner = scope(ref);
        List<Scoped> nums = k == Kind.I ? ofKind(inner, Kind.I) : numericCols(inner);
        String agg;
        if (nums.isEmpty() || chance(30)) {
            agg = "COUNT(*)";
        } else {
            agg = pick(List.of("MIN", "MAX", "SUM")) + "(" + pick(nums).text + ")";
        }
        String where = "";
        if (chance(50) && !outer.isEmpty()) {
            where = " WHERE " + correlation(inner, outer);
        } else if (chance(40)) {
            where = " WHERE " + predicate(inner, 1);
        }
        return "(SELECT " + agg + " FROM " + t.name + " AS " + ref.alias + where + ")";
    }

    /** inner.col op outer.col of like kinds, else a predicate on the inner columns. */
    private String correlation(List<Scoped> inner, List<Scoped> outer) {
        for (int i = 0; i < 6; i++) {
            Scoped a = pick(inner);
            Scoped b = pick(outer);
            if (a.type.numeric() == b.type.numeric()) {
                return a.text + " " + pick(List.of("=", "=", "<", ">=", "<>")) + " " + b.text;
            }
        }
        return predicate(inner, 1);
    }

    String cmp() {
        return pick(List.of("=", "<>", "<", "<=", ">", ">=", "!="));
    }

    /** A boolean predicate over {@code scope}. */
    String predicate(List<Scoped> scope, int depth) {
        int choice = r.nextInt(depth <= 0 ? 9 : noSubqueries ? 13 : 16);
        boolean textual = chance(30) && !ofKind(scope, Kind.T).isEmpty();
        switch (choice) {
            case 0, 1, 2: {
                if (textual) {
                    return text(scope, depth - 1) + " " + cmp() + " " + text(scope, depth - 1);
                }
                Kind k = chance(50) ? Kind.I : Kind.F;
                return num(scope, k, depth - 1) + " " + cmp() + " " + num(scope, k, depth - 1);
            }
            case 3: { // BETWEEN, with a column as a bound now and then
                String not = chance(20) ? " NOT" : "";
                if (textual) {
                    List<Scoped> tc = ofKind(scope, Kind.T);
                    String x = tc.isEmpty() ? text(scope, 0) : pick(tc).text;
                    return x + not + " BETWEEN " + text(scope, 0) + " AND " + text(scope, 0);
                }
                Kind k = chance(50) ? Kind.I : Kind.F;
                List<Scoped> cols = k == Kind.I ? ofKind(scope, Kind.I) : numericCols(scope);
                String x = cols.isEmpty() ? num(scope, k, 0) : pick(cols).text;
                String lo = chance(30) ? num(scope, k, 0) : literal(Type.INT);
                String hi = chance(30) ? num(scope, k, 0) : literal(Type.INT);
                return x + not + " BETWEEN " + lo + " AND " + hi;
            }
            case 4: { // IN list
                String not = chance(25) ? " NOT" : "";
                StringBuilder sb = new StringBuilder();
                int n = 1 + r.nextInt(4);
                List<Scoped> ints = ofKind(scope, Kind.I);
                if (!ints.isEmpty() && chance(10)) { // 64 keys or more lying close together: a bitmap sorts them
                    sb.append(pick(ints).text).append(not).append(" IN (");
                    int m = 64 + r.nextInt(40);
                    int base = r.nextInt(10) - 8;
                    for (int i = 0; i < m; i++) {
                        sb.append(i == 0 ? "" : ", ").append(base + r.nextInt(m * 3));
                    }
                    return sb.append(')').toString();
                }
                if (textual) {
                    sb.append(text(scope, 0)).append(not).append(" IN (");
                    for (int i = 0; i < n; i++) {
                        sb.append(i == 0 ? "" : ", ").append(chance(10) ? "NULL" : "'" + text() + "'");
                    }
                } else {
                    Kind k = chance(60) ? Kind.I : Kind.F;
                    sb.append(num(scope, k, 0)).append(not).append(" IN (");
                    for (int i = 0; i < n; i++) {
                        // now and then a value that reads the row, as BETWEEN's bounds do ("a IN (3, b)")
                        sb.append(i == 0 ? "" : ", ").append(chance(10) ? "NULL" : chance(15) ? num(scope, k, 0)
                                : k == Kind.I ? literal(Type.INT) : floatLiteral());
                    }
                }
                return sb.append(')').toString();
            }
            case 5:
                return (scope.isEmpty() ? literal(Type.INT) : pick(scope).text) + (chance(50) ? " IS NULL" : " IS NOT NULL");
            case 6: {
                if (ofKind(scope, Kind.T).isEmpty()) {
                    return num(scope, Kind.I, 0) + " " + cmp() + " " + literal(Type.INT);
                }
                String[] pats = {"a%", "%b", "%a%", "_", "__", "a_c", "%", "b%c", "", "ab"};
                return text(scope, 0) + (chance(20) ? " NOT LIKE '" : " LIKE '") + pats[r.nextInt(pats.length)] + "'";
            }
            case 7:
                return pick(List.of("TRUE", "FALSE", "NULL IS NULL", "1 = 1", "1 = 0"));
            case 8: {
                Scoped s = scope.isEmpty() ? null : pick(scope);
                if (s == null) {
                    return "TRUE";
                }
                return s.text + " IS" + (chance(50) ? " NOT" : "") + " DISTINCT FROM "
                        + (s.type.numeric() ? literal(Type.INT) : "'" + text() + "'");
            }
            case 9:
                return "NOT (" + predicate(scope, depth - 1) + ")";
            case 10, 11:
                return "(" + predicate(scope, depth - 1) + " AND " + predicate(scope, depth - 1) + ")";
            case 12:
                return "(" + predicate(scope, depth - 1) + " OR " + predicate(scope, depth - 1) + ")";
            case 13: { // EXISTS, correlated mostly
                Table t = pick(tables);
                Ref ref = new Ref(t, alias());
                List<Scoped> inner = scope(ref);
                String where = chance(70) ? correlation(inner, scope) : predicate(inner, 1);
                return (chance(25) ? "NOT " : "") + "EXISTS (SELECT 1 FROM " + t.name + " AS " + ref.alias + " WHERE " + where + ")";
            }
            case 14: { // IN (SELECT ...)
                Table t = pick(tables);
                Ref ref = new Ref(t, alias());
                List<Scoped> inner = scope(ref);
                Scoped col = pick(inner);
                String lhs = col.type.numeric() ? num(scope, kindOf(col.type) == Kind.I ? Kind.I : Kind.F, 0) : text(scope, 0);
                String where = chance(50) ? " WHERE " + predicate(inner, 1) : chance(30) ? " WHERE " + correlation(inner, scope) : "";
                return lhs + (chance(25) ? " NOT IN" : " IN") + " (SELECT " + col.text + " FROM " + t.name + " AS " + ref.alias + where + ")";
            }
            default: { // a comparison with a scalar subquery
                Kind k = chance(50) ? Kind.I : Kind.F;
                return num(scope, k, 0) + " " + cmp() + " " + scalarSubquery(scope, k);
            }
        }
    }

    /** An expression of any kind for a select list, with its kind. */
    record Out(String sql, Kind kind) {
    }

    Out output(List<Scoped> scope, int depth) {
        if (chance(60) && !scope.isEmpty()) {
            Scoped s = pick(scope);
            return new Out(s.text, kindOf(s.type));
        }
        return expr(scope, pick(List.of(Kind.I, Kind.F, Kind.T)), depth);
    }

    Out expr(List<Scoped> scope, Kind k, int depth) {
        return k == Kind.T ? new Out(text(scope, depth), Kind.T) : new Out(num(scope, k, depth), k);
    }

    // ---- whole queries ----------------------------------------------------------------------

    /** A query, and whether its ORDER BY fixes the order of its rows (every output column sorted). */
    record Query(String sql, boolean ordered) {
    }

    Query query() {
        int kind = r.nextInt(100);
        if (kind < 35) {
            return plainQuery();
        } else if (kind < 55) {
            return groupedQuery();
        } else if (kind < 72) {
            return windowQuery();
        } else {
            return setQuery();
        }
    }

    private Query plainQuery() {
        From f = from(true);
        int n = 1 + r.nextInt(3);
        List<String> outs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            outs.add(output(f.scope(), 1).sql());
        }
        String sql = "SELECT " + (chance(20) ? "DISTINCT " : "") + String.join(", ", outs) + " FROM " + f.sql()
                + (chance(75) ? " WHERE " + predicate(f.scope(), 2) : "");
        return orderAndLimit(sql, n);
    }

    private Query orderAndLimit(String sql, int outputs) {
        if (!chance(45)) {
            return new Query(sql, false);
        }
        StringBuilder sb = new StringBuilder(sql).append(" ORDER BY ");
        List<Integer> ord = new ArrayList<>();
        for (int i = 1; i <= outputs; i++) {
            ord.add(i);
        }
        java.util.Collections.shuffle(ord, r);
        for (int i = 0; i < ord.size(); i++) {
            sb.append(i == 0 ? "" : ", ").append(ord.get(i)).append(chance(40) ? " DESC" : "");
            if (chance(10)) {
                sb.append(chance(50) ? " NULLS FIRST" : " NULLS LAST");
            }
        }
        if (chance(60)) {
            sb.append(" LIMIT ").append(r.nextInt(8));
            if (chance(50)) {
                sb.append(" OFFSET ").append(r.nextInt(5));
            }
        }
        return new Query(sb.toString(), true);
    }

    /** The aggregates of a grouped query over {@code scope}: text and kind. */
    List<Scoped> aggregates(List<Scoped> scope, int n) {
        List<Scoped> aggs = new ArrayList<>();
        List<Scoped> nums = numericCols(scope);
        for (int i = 0; i < n; i++) {
            int c = r.nextInt(7);
            if (c == 0 || scope.isEmpty()) {
                aggs.add(new Scoped("COUNT(*)", Type.BIGINT));
            } else if (c == 1) {
                aggs.add(new Scoped("COUNT(" + pick(scope).text() + ")", Type.BIGINT));
            } else if (c == 2 && !nums.isEmpty()) {
                Scoped x = pick(nums);
                aggs.add(new Scoped("SUM(" + x.text() + ")", x.type() == Type.FLOAT ? Type.FLOAT : Type.BIGINT));
            } else if (c == 3 && !nums.isEmpty()) {
                aggs.add(new Scoped("AVG(" + pick(nums).text() + ")", Type.FLOAT));
            } else if (c == 4) {
                aggs.add(new Scoped("COUNT(DISTINCT " + pick(scope).text() + ")", Type.BIGINT));
            } else {
                Scoped x = pick(scope);
                aggs.add(new Scoped((c == 5 ? "MIN(" : "MAX(") + x.text() + ")", x.type()));
            }
        }
        return aggs;
    }

    /** A HAVING condition over the group keys and aggregates: no subqueries. */
    String having(List<Scoped> keysAndAggs) {
        noSubqueries = true;
        try {
            return predicate(keysAndAggs, 1);
        } finally {
            noSubqueries = false;
        }
    }

    private Query groupedQuery() {
        From f = from(true);
        List<Scoped> keys = new ArrayList<>();
        int nk = r.nextInt(3);
        for (int i = 0; i < nk; i++) {
            Scoped k = pick(f.scope());
            if (!keys.contains(k)) {
                keys.add(k);
            }
        }
        List<Scoped> aggs = aggregates(f.scope(), 1 + r.nextInt(3));
        List<String> outs = new ArrayList<>();
        for (Scoped k : keys) {
            outs.add(k.text());
        }
        for (Scoped a : aggs) {
            outs.add(a.text());
        }
        StringBuilder sb = new StringBuilder("SELECT ").append(String.join(", ", outs)).append(" FROM ").append(f.sql());
        if (chance(60)) {
            sb.append(" WHERE ").append(predicate(f.scope(), 2));
        }
        if (!keys.isEmpty()) {
            sb.append(" GROUP BY ");
            for (int i = 0; i < keys.size(); i++) {
                sb.append(i == 0 ? "" : ", ").append(keys.get(i).text());
            }
            if (chance(50)) {
                List<Scoped> hs = new ArrayList<>(keys);
                hs.addAll(aggregates(f.scope(), 2));
                sb.append(" HAVING ").append(having(hs));
            }
        }
        return orderAndLimit(sb.toString(), outs.size());
    }

    private Query windowQuery() {
        From f = from(chance(30));
        Scoped part = pick(f.scope());
        Scoped ord = pick(f.scope());
        List<String> outs = new ArrayList<>(List.of(part.text(), ord.text()));
        int n = 1 + r.nextInt(3);
        List<Scoped> nums = numericCols(f.scope());
        boolean positional = false;
        for (int i = 0; i < n; i++) {
            String over;
            int o = r.nextInt(3);
            over = o == 0 ? "OVER (PARTITION BY " + part.text() + ")"
                    : o == 1 ? "OVER (PARTITION BY " + part.text() + " ORDER BY " + ord.text() + ")"
                    : "OVER (ORDER BY " + ord.text() + (chance(50) ? " DESC" : "") + ")";
            boolean ordered = o != 0;
            int fn = r.nextInt(9);
            String w;
            if (fn < 3 && !nums.isEmpty()) {
                // an aggregate over a frame that holds whole peer groups: the same in any order of ties
                w = pick(List.of("SUM", "MIN", "MAX", "AVG", "COUNT")) + "(" + pick(nums).text() + ") " + over;
            } else if (fn == 3) {
                w = "COUNT(*) " + over;
            } else if (o != 1 || positional) {
                // a row's position among ties is free: positional functions only where the whole output
                // row is fixed by the window's keys (part, ord), and once (two could break ties apart)
                w = "MAX(" + ord.text() + ") " + over;
            } else if (fn == 4) {
                w = pick(List.of("RANK()", "DENSE_RANK()", "ROW_NUMBER()")) + " " + over;
            } else if (fn == 5) {
                w = "NTILE(" + (2 + r.nextInt(3)) + ") " + over;
            } else if (fn == 6) {
                w = (chance(50) ? "LAG(" : "LEAD(") + ord.text() + ") " + over;
            } else {
                w = "FIRST_VALUE(" + ord.text() + ") " + over;
            }
            positional |= w.startsWith("RANK") || w.startsWith("DENSE") || w.startsWith("ROW_") || w.startsWith("NTILE")
                    || w.startsWith("LAG") || w.startsWith("LEAD");
            outs.add(w);
        }
        String sql = "SELECT " + String.join(", ", outs) + " FROM " + f.sql()
                + (chance(50) ? " WHERE " + predicate(f.scope(), 1) : "");
        return orderAndLimit(sql, outs.size());
    }

    private Query setQuery() {
        int n = 1 + r.nextInt(2);
        List<Kind> kinds = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            kinds.add(pick(List.of(Kind.I, Kind.F, Kind.T)));
        }
        String op = pick(List.of("UNION", "UNION ALL", "INTERSECT", "EXCEPT", "UNION ALL"));
        String sql = setSide(kinds) + " " + op + " " + setSide(kinds);
        return orderAndLimit(sql, n);
    }

    private String setSide(List<Kind> kinds) {
        From f = from(chance(30));
        List<String> outs = new ArrayList<>();
        for (Kind k : kinds) {
            List<Scoped> cols = k == Kind.T ? ofKind(f.scope(), Kind.T) : k == Kind.I ? ofKind(f.scope(), Kind.I) : numericCols(f.scope());
            outs.add(!cols.isEmpty() && chance(70) ? pick(cols).text() : expr(f.scope(), k, 1).sql());
        }
        return "SELECT " + String.join(", ", outs) + " FROM " + f.sql() + (chance(60) ? " WHERE " + predicate(f.scope(), 1) : "");
    }

    // ---- writes -----------------------------------------------------------------------------

    /**
     * An UPDATE or DELETE of {@code t} written with {@code {T}} for the table's name (so the same
     * statement runs on its copy); columns unqualified, subqueries uncorrelated.
     */
    String write(Table t) {
        // the copy's statement must read the copy wherever the table's statement reads the table, and
        // no view (a view reads the table, already written when the copy's turn comes)
        String name = t.name;
        List<Table> all = new ArrayList<>(tables);
        tables.removeIf(x -> x.view);
        t.name = "{T}";
        try {
            return writeOf(t);
        } finally {
            t.name = name;
            tables.clear();
            tables.addAll(all);
        }
    }

    /** A condition an index answers alone (equality, IN, a range) on one column: the write kernels' paths. */
    private String indexShaped(Table t, List<Scoped> scope) {
        Scoped c = pick(scope);
        if (c.type() == Type.TEXT) {
            return c.text() + " = '" + text() + "'";
        }
        return switch (r.nextInt(5)) {
            case 0 -> c.text() + " = " + literal(Type.INT);
            case 1 -> c.text() + " IN (" + literal(Type.INT) + ", " + literal(Type.INT) + ", " + literal(Type.INT) + ")";
            case 2 -> c.text() + " BETWEEN " + literal(Type.INT) + " AND " + literal(Type.INT);
            case 3 -> c.text() + " > " + literal(Type.INT);
            default -> c.text() + " <= " + literal(Type.INT) + " AND " + c.text() + " > " + literal(Type.INT);
        };
    }

    private String writeOf(Table t) {
        List<Scoped> scope = new ArrayList<>();
        for (Col c : t.cols) {
            scope.add(new Scoped("{T}." + c.name, c.type)); // qualified: a subquery's own columns never capture them
        }
        String where = chance(40) ? indexShaped(t, scope) : predicate(scope, 2);
        if (chance(35)) {
            return "DELETE FROM {T}" + (chance(90) ? " WHERE " + where : "");
        }
        StringBuilder sb = new StringBuilder("UPDATE {T} SET ");
        int n = 1 + r.nextInt(2);
        List<Col> cols = new ArrayList<>(t.cols);
        java.util.Collections.shuffle(cols, r);
        for (int i = 0; i < n && i < cols.size(); i++) {
            Col c = cols.get(i);
            String v;
            boolean nullable = c != t.pk && !t.notNull.contains(c.name);
            if (c.type == Type.TEXT) {
                v = chance(20) && nullable ? "NULL" : chance(50) ? "'" + text() + "'" : "COALESCE(" + c.name + ", '') || '" + text() + "'";
            } else if (chance(15) && nullable) {
                v = "NULL";
            } else if (c.type == Type.FLOAT) {
                v = chance(50) ? floatLiteral() : c.name + " + " + floatLiteral();
            } else {
                v = chance(40) ? literal(Type.INT) : c.name + " " + pick(List.of("+", "-")) + " " + (1 + r.nextInt(5));
            }
            sb.append(i == 0 ? "" : ", ").append(c.name).append(" = ").append(v);
        }
        return sb.append(chance(90) ? " WHERE " + where : "").toString();
    }
}
