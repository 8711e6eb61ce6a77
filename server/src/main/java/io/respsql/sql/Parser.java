package io.respsql.sql;

import io.respsql.sql.Expr.CompareOp;
import io.respsql.sql.Statement.Assignment;
import io.respsql.sql.Statement.ColumnDef;
import io.respsql.sql.Statement.OrderBy;
import io.respsql.sql.Statement.SelectItem;
import io.respsql.sql.Statement.TableRef;

import java.util.ArrayList;
import java.util.List;

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
        if (p.peek().is(Symbol.SEMICOLON)) {
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
        if (t.keyword() == null) {
            throw error("a statement (CREATE, DROP, DESC, DUMP, INSERT, SELECT, UPDATE, DELETE, EXPLAIN, SHOW)");
        }
        switch (t.keyword()) {
            case CREATE:
                pos++;
                if (acceptKeyword(Keyword.TABLE)) {
                    return createTable();
                }
                if (acceptKeyword(Keyword.INDEX)) {
                    return createIndex();
                }
                throw error("TABLE or INDEX after CREATE");
            case DROP:
                pos++;
                if (acceptKeyword(Keyword.TABLE)) {
                    boolean ifExists = false;
                    if (acceptKeyword(Keyword.IF)) {
                        expectKeyword(Keyword.EXISTS);
                        ifExists = true;
                    }
                    return new Statement.DropTable(name("table name"), ifExists);
                }
                if (acceptKeyword(Keyword.INDEX)) {
                    return new Statement.DropIndex(name("index name"));
                }
                throw error("TABLE or INDEX after DROP");
            case DESC:
            case DESCRIBE:
                pos++;
                return new Statement.Describe(name("table name"));
            case DUMP:
                pos++;
                return new Statement.Dump(name("table name"));
            case SHOW:
                pos++;
                if (acceptKeyword(Keyword.TABLES)) {
                    return new Statement.ShowTables();
                }
                if (acceptKeyword(Keyword.INDEXES) || acceptKeyword(Keyword.INDEX)) {
                    String from = acceptKeyword(Keyword.FROM) || acceptKeyword(Keyword.IN) ? name("table name") : null;
                    return new Statement.ShowIndexes(from);
                }
                throw error("TABLES or INDEXES after SHOW");
            case INSERT:
                pos++;
                return insert();
            case SELECT:
            case SCANSELECT:
                pos++;
                return select();
            case UPDATE:
                pos++;
                return update();
            case DELETE:
                pos++;
                expectKeyword(Keyword.FROM);
                String table = name("table name");
                return new Statement.Delete(table, optionalWhere());
            case EXPLAIN:
                pos++;
                return new Statement.Explain(statement());
            default:
                throw error("a statement (CREATE, DROP, DESC, DUMP, INSERT, SELECT, UPDATE, DELETE, EXPLAIN, SHOW)");
        }
    }

    private Statement createTable() {
        boolean ifNotExists = false;
        if (acceptKeyword(Keyword.IF)) {
            expectKeyword(Keyword.NOT);
            expectKeyword(Keyword.EXISTS);
            ifNotExists = true;
        }
        String table = name("table name");
        expectSymbol(Symbol.LPAREN);
        List<ColumnDef> cols = new ArrayList<>();
        String pk = null;
        do {
            if (peek().is(Keyword.PRIMARY) && peek(1).is(Keyword.KEY)) {
                pos += 2;
                expectSymbol(Symbol.LPAREN);
                pk = name("primary key column");
                expectSymbol(Symbol.RPAREN);
                continue;
            }
            String col = name("column name");
            Token type = peek();
            if (type.type != Token.Type.IDENT) {
                throw error("a column type (INT, BIGINT, FLOAT, TEXT) for column '" + col + "'");
            }
            pos++;
            if (acceptSymbol(Symbol.LPAREN)) { // VARCHAR(32): the size is accepted and ignored
                expect(Token.Type.NUMBER, "a size");
                expectSymbol(Symbol.RPAREN);
            }
            boolean primary = false;
            while (true) {
                if (acceptKeyword(Keyword.PRIMARY)) {
                    expectKeyword(Keyword.KEY);
                    primary = true;
                } else if (acceptKeyword(Keyword.NOT)) {
                    expectKeyword(Keyword.NULL);
                } else {
                    break;
                }
            }
            cols.add(new ColumnDef(col, type.text, primary));
        } while (acceptSymbol(Symbol.COMMA));
        expectSymbol(Symbol.RPAREN);
        return new Statement.CreateTable(table, cols, pk, ifNotExists);
    }

    private Statement createIndex() {
        String index = name("index name");
        expectKeyword(Keyword.ON);
        String table = name("table name");
        expectSymbol(Symbol.LPAREN);
        String column = name("column name");
        expectSymbol(Symbol.RPAREN);
        return new Statement.CreateIndex(index, table, column);
    }

    private Statement insert() {
        expectKeyword(Keyword.INTO);
        String table = name("table name");
        List<String> columns = null;
        if (acceptSymbol(Symbol.LPAREN)) {
            columns = new ArrayList<>();
            do {
                columns.add(name("column name"));
            } while (acceptSymbol(Symbol.COMMA));
            expectSymbol(Symbol.RPAREN);
        }
        expectKeyword(Keyword.VALUES);
        List<List<Expr>> rows = new ArrayList<>();
        do {
            expectSymbol(Symbol.LPAREN);
            List<Expr> values = new ArrayList<>();
            do {
                values.add(listValue());
            } while (acceptSymbol(Symbol.COMMA));
            expectSymbol(Symbol.RPAREN);
            rows.add(values);
        } while (acceptSymbol(Symbol.COMMA));
        boolean returnSize = false;
        if (acceptKeyword(Keyword.RETURN)) {
            expectKeyword(Keyword.SIZE);
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
            if (peek().is(Symbol.COMMA) || peek().is(Symbol.RPAREN)) {
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
            if (depth == 0 && (t.is(Symbol.COMMA) || t.is(Symbol.RPAREN))) {
                break;
            }
            if (t.is(Symbol.LPAREN)) {
                depth++;
            } else if (t.is(Symbol.RPAREN)) {
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
            if (acceptSymbol(Symbol.STAR)) {
                items.add(new SelectItem(null));
            } else {
                items.add(new SelectItem(additive()));
            }
        } while (acceptSymbol(Symbol.COMMA));
        expectKeyword(Keyword.FROM);
        List<TableRef> from = new ArrayList<>();
        do {
            from.add(new TableRef(name("table name")));
        } while (acceptSymbol(Symbol.COMMA));
        Expr where = optionalWhere();
        List<OrderBy> order = new ArrayList<>();
        if (acceptKeyword(Keyword.ORDER)) {
            expectKeyword(Keyword.BY);
            do {
                Expr e = additive();
                boolean desc = false;
                if (acceptKeyword(Keyword.DESC)) {
                    desc = true;
                } else {
                    acceptKeyword(Keyword.ASC);
                }
                order.add(new OrderBy(e, desc));
            } while (acceptSymbol(Symbol.COMMA));
        }
        long limit = -1;
        long offset = 0;
        if (acceptKeyword(Keyword.LIMIT)) {
            limit = nonNegative("LIMIT");
            if (acceptKeyword(Keyword.OFFSET)) {
                offset = nonNegative("OFFSET");
            }
        } else if (acceptKeyword(Keyword.OFFSET)) {
            offset = nonNegative("OFFSET");
        }
        return new Statement.Select(items, from, where, order, limit, offset);
    }

    private long nonNegative(String clause) {
        Token t = peek();
        if (t.type != Token.Type.NUMBER || !isIntegral(t.text)) {
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
        expectKeyword(Keyword.SET);
        List<Assignment> sets = new ArrayList<>();
        do {
            String col = name("column name");
            expectSymbol(Symbol.EQ);
            sets.add(new Assignment(col, setValue()));
        } while (acceptSymbol(Symbol.COMMA));
        return new Statement.Update(table, sets, optionalWhere());
    }

    /** The right side of SET col=...: an expression, or unquoted text up to the next , or WHERE. */
    private Expr setValue() {
        int save = pos;
        try {
            Expr e = additive();
            if (peek().is(Symbol.COMMA) || peek().is(Keyword.WHERE) || peek().type == Token.Type.END || peek().is(Symbol.SEMICOLON)) {
                return e;
            }
        } catch (SqlException notAnExpression) {
            // fall through
        }
        pos = save;
        Token first = peek();
        while (!(peek().is(Symbol.COMMA) || peek().is(Keyword.WHERE) || peek().type == Token.Type.END)) {
            pos++;
        }
        if (pos == save) {
            throw error("a value");
        }
        Token last = tokens.get(pos - 1);
        return new Expr.Raw(sql.substring(first.start, last.end), first.start, last.end);
    }

    private Expr optionalWhere() {
        return acceptKeyword(Keyword.WHERE) ? or() : null;
    }

    // ---- expressions (lowest precedence first) ----------------------------------------------

    private Expr or() {
        int entered = depth;
        Expr left = and();
        while (acceptKeyword(Keyword.OR)) {
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
        while (acceptKeyword(Keyword.AND)) {
            deeper();
            Expr right = not();
            left = new Expr.And(left, right, left.start(), right.end());
        }
        depth = entered;
        return left;
    }

    private Expr not() {
        Token t = peek();
        if (acceptKeyword(Keyword.NOT)) {
            deeper();
            Expr e = not();
            depth--;
            return new Expr.Not(e, t.start, e.end());
        }
        return predicate();
    }

    private Expr predicate() {
        if (peek().is(Symbol.LPAREN) && startsBooleanGroup()) {
            pos++;
            deeper();
            Expr e = or();
            depth--;
            expectSymbol(Symbol.RPAREN);
            return e;
        }
        Expr left = additive();
        boolean negated = false;
        if (peek().is(Keyword.NOT) && (peek(1).is(Keyword.BETWEEN) || peek(1).is(Keyword.IN))) {
            pos++;
            negated = true;
        }
        if (acceptKeyword(Keyword.BETWEEN)) {
            Expr lo = additive();
            expectKeyword(Keyword.AND);
            Expr hi = additive();
            return new Expr.Between(left, lo, hi, negated, left.start(), hi.end());
        }
        if (acceptKeyword(Keyword.IN)) {
            expectSymbol(Symbol.LPAREN);
            List<Expr> values = new ArrayList<>();
            do {
                values.add(listValue());
            } while (acceptSymbol(Symbol.COMMA));
            Token close = expectSymbol(Symbol.RPAREN);
            return new Expr.In(left, values, negated, left.start(), close.end);
        }
        Token t = peek();
        if (t.type == Token.Type.SYMBOL) {
            CompareOp op = compareOp(t.symbol());
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
            if (t.is(Symbol.LPAREN)) {
                depth++;
            } else if (t.is(Symbol.RPAREN)) {
                depth--;
                if (depth == 0) {
                    return false;
                }
            } else if (depth == 1 && (t.is(Keyword.AND) || t.is(Keyword.OR) || t.is(Keyword.BETWEEN) || t.is(Keyword.IN)
                    || t.is(Keyword.NOT) || compareOp(t.symbol()) != null)) {
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
        while (peek().is(Symbol.PLUS) || peek().is(Symbol.MINUS)) {
            char op = next().symbol() == Symbol.PLUS ? '+' : '-';
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
        while (peek().is(Symbol.STAR) || peek().is(Symbol.SLASH) || peek().is(Symbol.PERCENT)) {
            Symbol sym = next().symbol();
            char op = sym == Symbol.STAR ? '*' : sym == Symbol.SLASH ? '/' : '%';
            deeper();
            Expr right = unary();
            left = new Expr.Arith(op, left, right, left.start(), right.end());
        }
        depth = entered;
        return left;
    }

    private Expr unary() {
        Token t = peek();
        if (acceptSymbol(Symbol.MINUS)) {
            deeper();
            Expr e = unary();
            depth--;
            return new Expr.Neg(e, t.start, e.end());
        }
        if (acceptSymbol(Symbol.PLUS)) {
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
                return new Expr.Num(t.text, isIntegral(t.text), t.start, t.end);
            }
            case STRING:
                return new Expr.Str(t.text, t.start, t.end);
            case IDENT: {
                Expr.AggregateFn fn = aggregate(t);
                if (fn != null && acceptSymbol(Symbol.LPAREN)) {
                    Expr arg = null;
                    if (!acceptSymbol(Symbol.STAR)) {
                        arg = additive();
                    } else if (fn != Expr.AggregateFn.COUNT) {
                        throw new SqlException("syntax error: " + fn + "(*) is not allowed, name a column");
                    }
                    Token close = expectSymbol(Symbol.RPAREN);
                    return new Expr.Aggregate(fn, arg, t.start, close.end);
                }
                if (acceptSymbol(Symbol.DOT)) {
                    Token col = expect(Token.Type.IDENT, "a column name after '" + t.text + ".'");
                    return new Expr.Ident(t.text, col.text, t.start, col.end);
                }
                return new Expr.Ident(null, t.text, t.start, t.end);
            }
            case SYMBOL:
                if (t.symbol() == Symbol.LPAREN) {
                    deeper();
                    Expr e = additive();
                    depth--;
                    expectSymbol(Symbol.RPAREN);
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
        if (t.keyword() == null) {
            return null;
        }
        switch (t.keyword()) {
            case COUNT:
                return Expr.AggregateFn.COUNT;
            case SUM:
                return Expr.AggregateFn.SUM;
            case MIN:
                return Expr.AggregateFn.MIN;
            case MAX:
                return Expr.AggregateFn.MAX;
            case AVG:
                return Expr.AggregateFn.AVG;
            default:
                return null;
        }
    }

    private static CompareOp compareOp(Symbol s) {
        if (s == null) {
            return null;
        }
        switch (s) {
            case EQ:
                return CompareOp.EQ;
            case NE:
                return CompareOp.NE;
            case LT:
                return CompareOp.LT;
            case LE:
                return CompareOp.LE;
            case GT:
                return CompareOp.GT;
            case GE:
                return CompareOp.GE;
            default:
                return null;
        }
    }

    /** A number written without a fraction or an exponent. */
    private static boolean isIntegral(String number) {
        for (int i = 0; i < number.length(); i++) {
            char c = number.charAt(i);
            if (c == '.' || c == 'e' || c == 'E') {
                return false;
            }
        }
        return true;
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

    private boolean acceptKeyword(Keyword kw) {
        if (peek().is(kw)) {
            pos++;
            return true;
        }
        return false;
    }

    private void expectKeyword(Keyword kw) {
        if (!acceptKeyword(kw)) {
            throw error(kw.name());
        }
    }

    private boolean acceptSymbol(Symbol s) {
        if (peek().is(s)) {
            pos++;
            return true;
        }
        return false;
    }

    private Token expectSymbol(Symbol s) {
        Token t = peek();
        if (!t.is(s)) {
            throw error("'" + s.text + "'");
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
