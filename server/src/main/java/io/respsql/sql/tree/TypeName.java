package io.respsql.sql.tree;

/**
 * A type as written in CREATE TABLE or CAST, reduced to its base name: {@code INTEGER},
 * {@code VARCHAR(20)}, {@code DOUBLE PRECISION}, {@code CHARACTER VARYING(5)}. {@code base} is
 * upper case with single spaces ({@code "DOUBLE PRECISION"}); {@code length}/{@code scale} are -1
 * when not written. Which storage type a name means is decided by the binder, not the parser.
 */
public record TypeName(String base, int length, int scale, int start, int end) {
}
