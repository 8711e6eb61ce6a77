package io.respsql;

public final class Main {
    public static void main(String[] args) {
    }
}
