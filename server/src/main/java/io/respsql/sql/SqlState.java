package io.respsql.sql;

/**
 * SQLSTATE codes, PostgreSQL's (Appendix A of its manual), named as PostgreSQL names their
 * conditions. Every {@link SqlException} carries one, chosen where the failure is found (as H2's
 * {@code ErrorCode}): a client tells a unique violation from a syntax error by its code, not its
 * text, and the PostgreSQL wire protocol sends it as the error's {@code C} field. The RESP error
 * text stays the text people (and 2010 scripts) read.
 */
public final class SqlState {
    private SqlState() {
    }

    // class 21: cardinality violation
    public static final String CARDINALITY_VIOLATION = "21000";
    // class 22: data exception
    public static final String NUMERIC_VALUE_OUT_OF_RANGE = "22003";
    public static final String NULL_VALUE_NOT_ALLOWED = "22004";
    public static final String INVALID_DATETIME_FORMAT = "22007";
    public static final String DATETIME_FIELD_OVERFLOW = "22008";
    public static final String INTERVAL_FIELD_OVERFLOW = "22015";
    public static final String DIVISION_BY_ZERO = "22012";
    public static final String INVALID_PRECEDING_OR_FOLLOWING_SIZE = "22013";
    public static final String INVALID_ARGUMENT_FOR_NTILE = "22014";
    public static final String CHARACTER_NOT_IN_REPERTOIRE = "22021";
    public static final String INVALID_PARAMETER_VALUE = "22023";
    public static final String INVALID_ESCAPE_SEQUENCE = "22025";
    public static final String STRING_DATA_RIGHT_TRUNCATION = "22001";
    public static final String INVALID_ROW_COUNT_IN_LIMIT_CLAUSE = "2201W";
    public static final String INVALID_TEXT_REPRESENTATION = "22P02";
    public static final String SUBSTRING_ERROR = "22011";
    // class 23: integrity constraint violation
    public static final String NOT_NULL_VIOLATION = "23502";
    public static final String FOREIGN_KEY_VIOLATION = "23503";
    public static final String UNIQUE_VIOLATION = "23505";
    public static final String CHECK_VIOLATION = "23514";
    // class 25: invalid transaction state
    public static final String READ_ONLY_SQL_TRANSACTION = "25006";
    // class 26: invalid SQL statement name
    public static final String INVALID_SQL_STATEMENT_NAME = "26000";
    // class 0A: feature not supported
    public static final String FEATURE_NOT_SUPPORTED = "0A000";
    // class 08: connection exception
    public static final String CONNECTION_FAILURE = "08006";
    // class 2B: dependent privilege descriptors still exist
    public static final String DEPENDENT_OBJECTS_STILL_EXIST = "2BP01";
    // class 42: syntax error or access rule violation
    public static final String SYNTAX_ERROR = "42601";
    public static final String INSUFFICIENT_PRIVILEGE = "42501";
    public static final String GROUPING_ERROR = "42803";
    public static final String WINDOWING_ERROR = "42P20";
    public static final String INVALID_COLUMN_REFERENCE = "42P10";
    public static final String DATATYPE_MISMATCH = "42804";
    public static final String WRONG_OBJECT_TYPE = "42809";
    public static final String CANNOT_COERCE = "42846";
    public static final String UNDEFINED_FUNCTION = "42883";
    public static final String UNDEFINED_TABLE = "42P01";
    public static final String UNDEFINED_COLUMN = "42703";
    public static final String UNDEFINED_OBJECT = "42704";
    public static final String INDETERMINATE_DATATYPE = "42P18";
    public static final String DUPLICATE_COLUMN = "42701";
    public static final String DUPLICATE_TABLE = "42P07";
    public static final String DUPLICATE_ALIAS = "42712";
    public static final String DUPLICATE_OBJECT = "42710";
    public static final String INVALID_FOREIGN_KEY = "42830";
    public static final String AMBIGUOUS_COLUMN = "42702";
    public static final String INVALID_TABLE_DEFINITION = "42P16";
    // class 53: insufficient resources
    public static final String OUT_OF_MEMORY = "53200";
    // class 54: program limit exceeded
    public static final String PROGRAM_LIMIT_EXCEEDED = "54000";
    public static final String STATEMENT_TOO_COMPLEX = "54001";
    // class 55: object not in prerequisite state
    public static final String OBJECT_NOT_IN_PREREQUISITE_STATE = "55000";
    // class 57: operator intervention
    public static final String QUERY_CANCELED = "57014";
    // ---- sequences and identity columns (seq helper) ----
    /** nextval past a sequence's MAXVALUE/MINVALUE without CYCLE. */
    public static final String SEQUENCE_GENERATOR_LIMIT_EXCEEDED = "2200H";
    /** An explicit value for a GENERATED ALWAYS identity column without OVERRIDING SYSTEM VALUE. */
    public static final String GENERATED_ALWAYS = "428C9";
    public static final String INVALID_SCHEMA_NAME = "3F000";
    // ---- with (WITH RECURSIVE, data-modifying CTEs) ----
    /** A recursive CTE not of PostgreSQL's form, or its self-reference where it may not be. */
    public static final String INVALID_RECURSION = "42P19";
    // class XX: internal error
    public static final String INTERNAL_ERROR = "XX000";
    // ---- window ----
    public static final String INVALID_ARGUMENT_FOR_NTH_VALUE = "22016";
    // ---- agg ----
    public static final String TOO_MANY_ARGUMENTS = "54023";
    // ---- tx: interactive transactions ----
    public static final String ACTIVE_SQL_TRANSACTION = "25001";
    public static final String NO_ACTIVE_SQL_TRANSACTION = "25P01";
    public static final String IN_FAILED_SQL_TRANSACTION = "25P02";
    public static final String IDLE_IN_TRANSACTION_SESSION_TIMEOUT = "25P03";
    public static final String INVALID_SAVEPOINT_SPECIFICATION = "3B001";
    public static final String SERIALIZATION_FAILURE = "40001";
    public static final String DEADLOCK_DETECTED = "40P01";
    public static final String ACTIVE_SQL_TRANSACTION_BEGIN = "25001";
    public static final String NO_ACTIVE_SQL_TRANSACTION_FOR_BRANCH = "25005";
    public static final String INVALID_TRANSACTION_STATE = "25000";
    // ---- textfn ----
    /** A regular expression that is invalid, or that RespSQL cannot give PostgreSQL's meaning. */
    public static final String INVALID_REGULAR_EXPRESSION = "2201B";

    // ---- partition ----
    public static final String INVALID_OBJECT_DEFINITION = "42P17";
    public static final String OBJECT_IN_USE = "55006";
    // ---- arrays ----
    /** PostgreSQL's array_subscript_error: ARRAY[] elements of mismatched dimensions, a bad subscript. */
    public static final String ARRAY_SUBSCRIPT_ERROR = "2202E";
}
