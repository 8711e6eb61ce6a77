package io.respsql.sql;

/** Punctuation and operators as codes; {@link #text} is how an error message quotes them. */
public enum Symbol implements Token.Code {
    LPAREN("("), RPAREN(")"), COMMA(","), DOT("."), SEMICOLON(";"),
    PLUS("+"), MINUS("-"), STAR("*"), SLASH("/"), PERCENT("%"),
    EQ("="), NE("!="), LT("<"), LE("<="), GT(">"), GE(">="),
    /** {@code ||}, string concatenation. */
    CONCAT("||"),
    /** {@code ::}, PostgreSQL's cast. */
    CAST("::"),
    /** PostgreSQL's regular-expression matches: {@code ~}, {@code !~}, {@code ~*}, {@code !~*}. */
    TILDE("~"), NOT_TILDE("!~"), TILDE_STAR("~*"), NOT_TILDE_STAR("!~*"),
    // ---- arrays (PostgreSQL's dialect only) ----
    /** {@code [ ] :}: subscripts, slices and array type names. */
    LBRACKET("["), RBRACKET("]"), COLON(":"),
    /** {@code @>}, {@code <@}, {@code &&}: array containment and overlap. */
    CONTAINS("@>"), CONTAINED_BY("<@"), OVERLAPS("&&");

    /**
     * The symbol as a token's text; {@code <>} is read as {@code !=}, so it shows as {@code !=},
     * and {@code ==} as {@code =}.
     */
    public final String text;

    Symbol(String text) {
        this.text = text;
    }

    /** The one-character symbol {@code c}, or null. */
    static Symbol of(char c) {
        switch (c) {
            case '(':
                return LPAREN;
            case ')':
                return RPAREN;
            case ',':
                return COMMA;
            case '.':
                return DOT;
            case ';':
                return SEMICOLON;
            case '+':
                return PLUS;
            case '-':
                return MINUS;
            case '*':
                return STAR;
            case '/':
                return SLASH;
            case '%':
                return PERCENT;
            case '=':
                return EQ;
            case '<':
                return LT;
            case '>':
                return GT;
            default:
                return null;
        }
    }
}
