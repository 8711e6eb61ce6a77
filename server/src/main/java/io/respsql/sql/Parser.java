package io.respsql.sql;

import io.respsql.sql.Expr.CompareOp;
import io.respsql.sql.Statement.Assignment;
import io.respsql.sql.Statement.ColumnDef;
import io.respsql.sql.Statement.OrderBy;
import io.respsql.sql.Statement.SelectItem;
import io.respsql.sql.Statement.TableRef;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Recursive-descent parser for the 2010 Redisql dialect plus the standard SQL it implies.
 * Errors name the token found and what was expected there.
 */
public final class Parser {
    /**
     * Deepest expression accepted. Parsing, binding and evaluation recurse over the tree, so an
     * absurdly nested statement must be refused with an error, not overflow the thread's stack.
     */
    static final int MAX_DEPTH = 200;

    private final String sql;
    private int depth;
    private final List<Token> tokens;
    private int pos;

    private Parser(String sql) {
        this.sql = sql;
        this.tokens = Lexer.tokenize(sql);
    }

    public static Statement parse(String sql) {
        Parser p = new Parser(sql);
        Statement s = p.statement();
        if (p.peek().isSymbol(";")) {
            p.pos++;
        }
        if (p.peek().type != Token.Type.END) {
            throw p.error("end of statement");
        }
        return s;
    }

    // ---- statements --------------------------------------------------------------------------

    private Statement statement() {
        Token t = peek();
        if (t.type != Token.Type.IDENT) {
            throw error("a statement (CREATE, DROP, DESC, DUMP, INSERT, SELECT, UPDATE, DELETE, EXPLAIN, SHOW)");
        }
        switch (t.text.toUpperCase(Locale.ROOT)) {
            case "CREATE":
                pos++;
                if (acceptKeyword("TABLE")) {
                    return createTable();
                }
                if (acceptKeyword("INDEX")) {
                    return createIndex();
                }
                throw error("TABLE or INDEX after CREATE");
            case "DROP":
                pos++;
                if (acceptKeyword("TABLE")) {
                    boolean ifExists = false;
                    if (acceptKeyword("IF")) {
                        expectKeyword("EXISTS");
                        ifExists = true;
                    }
                    return new Statement.DropTable(name("table name"), ifExists);
                }
                if (acceptKeyword("INDEX")) {
                    return new Statement.DropIndex(name("index name"));
                }
                throw error("TABLE or INDEX after DROP");
            case "DESC":
            case "DESCRIBE":
                pos++;
                return new Statement.Describe(name("table name"));
            case "DUMP":
                pos++;
                return new Statement.Dump(name("table name"));
            case "SHOW":
                pos++;
                expectKeyword("TABLES");
                return new Statement.ShowTables();
            case "INSERT":
                pos++;
                return insert();
            case "SELECT":
            case "SCANSELECT":
                pos++;
                return select();
            case "UPDATE":
                pos++;
                return update();
            case "DELETE":
                pos++;
                expectKeyword("FROM");
                String table = name("table name");
                return new Statement.Delete(table, optionalWhere());
            case "EXPLAIN":
                pos++;
                return new Statement.Explain(statement());
            default:
                throw error("a statement (CREATE, DROP, DESC, DUMP, INSERT, SELECT, UPDATE, DELETE, EXPLAIN, SHOW)");
        }
    }

    private Statement createTable() {
        boolean ifNotExists = false;
        if (acceptKeyword("IF")) {
            expectKeyword("NOT");
            expectKeyword("EXISTS");
            ifNotExists = true;
        }
        String table = name("table name");
        expectSymbol("(");
        List<ColumnDef> cols = new ArrayList<>();
        String pk = null;
        do {
            if (peek().isKeyword("PRIMARY") && peek(1).isKeyword("KEY")) {
                pos += 2;
                expectSymbol("(");
                pk = name("primary key column");
                expectSymbol(")");
                continue;
            }
            String col = name("column name");
            Token type = peek();
            if (type.type != Token.Type.IDENT) {
                throw error("a column type (INT, BIGINT, FLOAT, TEXT) for column '" + col + "'");
            }
            pos++;
            if (acceptSymbol("(")) { // VARCHAR(32): the size is accepted and ignored
                expect(Token.Type.NUMBER, "a size");
                expectSymbol(")");
            }
            boolean primary = false;
            while (true) {
                if (acceptKeyword("PRIMARY")) {
                    expectKeyword("KEY");
                    primary = true;
                } else if (acceptKeyword("NOT")) {
                    expectKeyword("NULL");
                } else {
                    break;
                }
            }
            cols.add(new ColumnDef(col, type.text, primary));
        } while (acceptSymbol(","));
        expectSymbol(")");
        return new Statement.CreateTable(table, cols, pk, ifNotExists);
    }

    private Statement createIndex() {
        String index = name("index name");
        expectKeyword("ON");
        String table = name("table name");
        expectSymbol("(");
        String column = name("column name");
        expectSymbol(")");
        return new Statement.CreateIndex(index, table, column);
    }

    private Statement insert() {
        expectKeyword("INTO");
        String table = name("table name");
        List<String> columns = null;
        if (acceptSymbol("(")) {
            columns = new ArrayList<>();
            do {
                columns.add(name("column name"));
            } while (acceptSymbol(","));
            expectSymbol(")");
        }
        expectKeyword("VALUES");
        List<List<Expr>> rows = new ArrayList<>();
        do {
            expectSymbol("(");
            List<Expr> values = new ArrayList<>();
            do {
                values.add(listValue());
            } while (acceptSymbol(","));
            expectSymbol(")");
            rows.add(values);
        } while (acceptSymbol(","));
        boolean returnSize = false;
        if (acceptKeyword("RETURN")) {
            expectKeyword("SIZE");
            returnSize = true;
        }
        return new Statement.Insert(table, columns, rows, returnSize);
    }

    /**
     * A value inside VALUES (...) or IN (...). 2010 clients sent unquoted text, possibly with
     * spaces or punctuation: whatever is not a single expression up to the next {@code ,} or
     * {@code )} is taken verbatim.
     */
    private Expr listValue() {
        int save = pos;
        try {
            Expr e = additive();
            if (peek().isSymbol(",") || peek().isSymbol(")")) {
                return e;
            }
        } catch (SqlException notAnExpression) {
            // fall through to the verbatim reading
        }
        pos = save;
        Token first = peek();
        int depth = 0;
        while (true) {
            Token t = peek();
            if (t.type == Token.Type.END) {
                throw error("')' to close the value list");
            }
            if (depth == 0 && (t.isSymbol(",") || t.isSymbol(")"))) {
                break;
            }
            if (t.isSymbol("(")) {
                depth++;
            } else if (t.isSymbol(")")) {
                depth--;
            }
            pos++;
        }
        if (pos == save) {
            throw error("a value");
        }
        Token last = tokens.get(pos - 1);
        return new Expr.Raw(sql.substring(first.start, last.end), first.start, last.end);
    }

    private Statement select() {
        List<SelectItem> items = new ArrayList<>();
        do {
            if (acceptSymbol("*")) {
                items.add(new SelectItem(null));
            } else {
                items.add(new SelectItem(additive()));
            }
        } while (acceptSymbol(","));
        expectKeyword("FROM");
        List<TableRef> from = new ArrayList<>();
        do {
            from.add(new TableRef(name("table name")));
        } while (acceptSymbol(","));
        Expr where = optionalWhere();
        List<OrderBy> order = new ArrayList<>();
        if (acceptKeyword("ORDER")) {
            expectKeyword("BY");
            do {
                Expr e = additive();
                boolean desc = false;
                if (acceptKeyword("DESC")) {
                    desc = true;
                } else {
                    acceptKeyword("ASC");
                }
                order.add(new OrderBy(e, desc));
            } while (acceptSymbol(","));
        }
        long limit = -1;
        long offset = 0;
        if (acceptKeyword("LIMIT")) {
            limit = nonNegative("LIMIT");
            if (acceptKeyword("OFFSET")) {
                offset = nonNegative("OFFSET");
            }
        } else if (acceptKeyword("OFFSET")) {
            offset = nonNegative("OFFSET");
        }
        return new Statement.Select(items, from, where, order, limit, offset);
    }

    private long nonNegative(String clause) {
        Token t = peek();
        if (t.type != Token.Type.NUMBER || t.text.contains(".") || t.text.toLowerCase(Locale.ROOT).contains("e")) {
            throw error("a whole number after " + clause);
        }
        pos++;
        try {
            return Long.parseLong(t.text);
        } catch (NumberFormatException e) {
            throw new SqlException(clause + " value " + t.text + " is out of range");
        }
    }

    private Statement update() {
        String table = name("table name");
        expectKeyword("SET");
        List<Assignment> sets = new ArrayList<>();
        do {
            String col = name("column name");
            expectSymbol("=");
            sets.add(new Assignment(col, setValue()));
        } while (acceptSymbol(","));
        return new Statement.Update(table, sets, optionalWhere());
    }

    /** The right side of SET col=...: an expression, or unquoted text up to the next , or WHERE. */
    private Expr setValue() {
        int save = pos;
        try {
            Expr e = additive();
            if (peek().isSymbol(",") || peek().isKeyword("WHERE") || peek().type == Token.Type.END || peek().isSymbol(";")) {
                return e;
            }
        } catch (SqlException notAnExpression) {
            // fall through
        }
        pos = save;
        Token first = peek();
        while (!(peek().isSymbol(",") || peek().isKeyword("WHERE") || peek().type == Token.Type.END)) {
            pos++;
        }
        if (pos == save) {
            throw error("a value");
        }
        Token last = tokens.get(pos - 1);
        return new Expr.Raw(sql.substring(first.start, last.end), first.start, last.end);
    }

    private Expr optionalWhere() {
        return acceptKeyword("WHERE") ? or() : null;
    }

    // ---- expressions (lowest precedence first) ----------------------------------------------

    private Expr or() {
        int entered = depth;
        Expr left = and();
        while (acceptKeyword("OR")) {
            deeper();
            Expr right = and();
            left = new Expr.Or(left, right, left.start(), right.end());
        }
        depth = entered;
        return left;
    }

    private Expr and() {
        int entered = depth;
        Expr left = not();
        while (acceptKeyword("AND")) {
            deeper();
            Expr right = not();
            left = new Expr.And(left, right, left.start(), right.end());
        }
        depth = entered;
        return left;
    }

    private Expr not() {
        Token t = peek();
        if (acceptKeyword("NOT")) {
            deeper();
            Expr e = not();
            depth--;
            return new Expr.Not(e, t.start, e.end());
        }
        return predicate();
    }

    private Expr predicate() {
        if (peek().isSymbol("(") && startsBooleanGroup()) {
            pos++;
            deeper();
            Expr e = or();
            depth--;
            expectSymbol(")");
            return e;
        }
        Expr left = additive();
        boolean negated = false;
        if (peek().isKeyword("NOT") && (peek(1).isKeyword("BETWEEN") || peek(1).isKeyword("IN"))) {
            pos++;
            negated = true;
        }
        if (acceptKeyword("BETWEEN")) {
            Expr lo = additive();
            expectKeyword("AND");
            Expr hi = additive();
            return new Expr.Between(left, lo, hi, negated, left.start(), hi.end());
        }
        if (acceptKeyword("IN")) {
            expectSymbol("(");
            List<Expr> values = new ArrayList<>();
            do {
                values.add(listValue());
            } while (acceptSymbol(","));
            Token close = expectSymbol(")");
            return new Expr.In(left, values, negated, left.start(), close.end);
        }
        Token t = peek();
        if (t.type == Token.Type.SYMBOL) {
            CompareOp op = CompareOp.of(t.text);
            if (op != null) {
                pos++;
                Expr right = additive();
                return new Expr.Compare(op, left, right, left.start(), right.end());
            }
        }
        throw error("a comparison (=, !=, <, <=, >, >=, BETWEEN, IN)");
    }

    /** Is the parenthesis at pos a boolean group "(a = 1 OR ...)" rather than arithmetic "(a + 1) = 2"? */
    private boolean startsBooleanGroup() {
        int depth = 0;
        for (int i = pos; i < tokens.size(); i++) {
            Token t = tokens.get(i);
            if (t.isSymbol("(")) {
                depth++;
            } else if (t.isSymbol(")")) {
                depth--;
                if (depth == 0) {
                    return false;
                }
            } else if (depth == 1 && (t.type == Token.Type.IDENT
                    && (t.isKeyword("AND") || t.isKeyword("OR") || t.isKeyword("BETWEEN") || t.isKeyword("IN") || t.isKeyword("NOT"))
                    || t.type == Token.Type.SYMBOL && CompareOp.of(t.text) != null)) {
                return true;
            } else if (t.type == Token.Type.END) {
                return false;
            }
        }
        return false;
    }

    private Expr additive() {
        int entered = depth;
        Expr left = multiplicative();
        while (peek().isSymbol("+") || peek().isSymbol("-")) {
            char op = next().text.charAt(0);
            deeper(); // a chain a+b+c+... is a left-deep tree as deep as it is long
            Expr right = multiplicative();
            left = new Expr.Arith(op, left, right, left.start(), right.end());
        }
        depth = entered;
        return left;
    }

    private Expr multiplicative() {
        int entered = depth;
        Expr left = unary();
        while (peek().isSymbol("*") || peek().isSymbol("/") || peek().isSymbol("%")) {
            char op = next().text.charAt(0);
            deeper();
            Expr right = unary();
            left = new Expr.Arith(op, left, right, left.start(), right.end());
        }
        depth = entered;
        return left;
    }

    private Expr unary() {
        Token t = peek();
        if (acceptSymbol("-")) {
            deeper();
            Expr e = unary();
            depth--;
            return new Expr.Neg(e, t.start, e.end());
        }
        if (acceptSymbol("+")) {
            deeper();
            Expr e = unary();
            depth--;
            return e;
        }
        return primary();
    }

    private void deeper() {
        if (++depth > MAX_DEPTH) {
            throw new SqlException("syntax error: expression nested deeper than " + MAX_DEPTH + " levels");
        }
    }

    private Expr primary() {
        if (peek().type == Token.Type.END) {
            throw error("a value or column name");
        }
        Token t = next();
        switch (t.type) {
            case NUMBER: {
                String lower = t.text.toLowerCase(Locale.ROOT);
                boolean integral = lower.indexOf('.') < 0 && lower.indexOf('e') < 0;
                return new Expr.Num(t.text, integral, t.start, t.end);
            }
            case STRING:
                return new Expr.Str(t.text, t.start, t.end);
            case IDENT: {
                Expr.AggregateFn fn = aggregate(t);
                if (fn != null && acceptSymbol("(")) {
                    Expr arg = null;
                    if (!acceptSymbol("*")) {
                        arg = additive();
                    } else if (fn != Expr.AggregateFn.COUNT) {
                        throw new SqlException("syntax error: " + fn + "(*) is not allowed, name a column");
                    }
                    Token close = expectSymbol(")");
                    return new Expr.Aggregate(fn, arg, t.start, close.end);
                }
                if (acceptSymbol(".")) {
                    Token col = expect(Token.Type.IDENT, "a column name after '" + t.text + ".'");
                    return new Expr.Ident(t.text, col.text, t.start, col.end);
                }
                return new Expr.Ident(null, t.text, t.start, t.end);
            }
            case SYMBOL:
                if (t.text.equals("(")) {
                    deeper();
                    Expr e = additive();
                    depth--;
                    expectSymbol(")");
                    return e;
                }
                pos--;
                throw error("a value or column name");
            default:
                pos--;
                throw error("a value or column name");
        }
    }

    private static Expr.AggregateFn aggregate(Token t) {
        for (Expr.AggregateFn fn : Expr.AggregateFn.ALL) {
            if (t.text.equalsIgnoreCase(fn.name())) {
                return fn;
            }
        }
        return null;
    }

    // ---- token helpers ------------------------------------------------------------------------

    private Token peek() {
        return tokens.get(pos);
    }

    private Token peek(int ahead) {
        return tokens.get(Math.min(pos + ahead, tokens.size() - 1));
    }

    private Token next() {
        Token t = tokens.get(pos);
        if (t.type != Token.Type.END) {
            pos++;
        }
        return t;
    }

    private boolean acceptKeyword(String kw) {
        if (peek().isKeyword(kw)) {
            pos++;
            return true;
        }
        return false;
    }

    private void expectKeyword(String kw) {
        if (!acceptKeyword(kw)) {
            throw error(kw);
        }
    }

    private boolean acceptSymbol(String s) {
        if (peek().isSymbol(s)) {
            pos++;
            return true;
        }
        return false;
    }

    private Token expectSymbol(String s) {
        Token t = peek();
        if (!t.isSymbol(s)) {
            throw error("'" + s + "'");
        }
        pos++;
        return t;
    }

    private Token expect(Token.Type type, String what) {
        Token t = peek();
        if (t.type != type) {
            throw error(what);
        }
        pos++;
        return t;
    }

    private String name(String what) {
        Token t = peek();
        if (t.type != Token.Type.IDENT) {
            throw error(what);
        }
        pos++;
        return t.text;
    }

    private SqlException error(String expected) {
        Token t = peek();
        String found = t.type == Token.Type.END ? "end of statement" : "'" + t.text + "' at position " + (t.start + 1);
        return new SqlException("syntax error: expected " + expected + ", found " + found);
    }
}
