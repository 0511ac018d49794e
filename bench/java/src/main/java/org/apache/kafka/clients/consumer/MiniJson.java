package org.apache.kafka.clients.consumer;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Just enough JSON (objects, arrays, strings, integers, booleans, null) to read the harness inputs without extra jars. */
public final class MiniJson {
    private final String text;
    private int pos;

    private MiniJson(String text) {
        this.text = text;
    }

    public static Object parse(String text) {
        MiniJson parser = new MiniJson(text);
        Object value = parser.value();
        parser.skipSpace();
        if (parser.pos != text.length()) throw parser.error("trailing characters");
        return value;
    }

    private Object value() {
        skipSpace();
        if (pos >= text.length()) throw error("unexpected end");
        char c = text.charAt(pos);
        switch (c) {
            case '{': return object();
            case '[': return array();
            case '"': return string();
            case 't': expect("true"); return Boolean.TRUE;
            case 'f': expect("false"); return Boolean.FALSE;
            case 'n': expect("null"); return null;
            default: return number();
        }
    }

    private Map<String, Object> object() {
        Map<String, Object> map = new LinkedHashMap<>();
        pos++;
        skipSpace();
        if (text.charAt(pos) == '}') { pos++; return map; }
        while (true) {
            skipSpace();
            String key = string();
            skipSpace();
            if (text.charAt(pos++) != ':') throw error("expected ':'");
            map.put(key, value());
            skipSpace();
            char c = text.charAt(pos++);
            if (c == '}') return map;
            if (c != ',') throw error("expected ',' or '}'");
        }
    }

    private List<Object> array() {
        List<Object> list = new ArrayList<>();
        pos++;
        skipSpace();
        if (text.charAt(pos) == ']') { pos++; return list; }
        while (true) {
            list.add(value());
            skipSpace();
            char c = text.charAt(pos++);
            if (c == ']') return list;
            if (c != ',') throw error("expected ',' or ']'");
        }
    }

    private String string() {
        if (text.charAt(pos) != '"') throw error("expected a string");
        StringBuilder sb = new StringBuilder();
        pos++;
        while (true) {
            char c = text.charAt(pos++);
            if (c == '"') return sb.toString();
            if (c != '\\') { sb.append(c); continue; }
            char e = text.charAt(pos++);
            switch (e) {
                case 'n': sb.append('\n'); break;
                case 't': sb.append('\t'); break;
                case 'r': sb.append('\r'); break;
                case 'b': sb.append('\b'); break;
                case 'f': sb.append('\f'); break;
                case 'u': sb.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16)); pos += 4; break;
                default: sb.append(e);
            }
        }
    }

    private Long number() {
        int start = pos;
        if (text.charAt(pos) == '-') pos++;
        while (pos < text.length() && Character.isDigit(text.charAt(pos))) pos++;
        if (start == pos) throw error("unexpected character");
        return Long.parseLong(text.substring(start, pos));
    }

    private void expect(String word) {
        if (!text.startsWith(word, pos)) throw error("expected " + word);
        pos += word.length();
    }

    private void skipSpace() {
        while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) pos++;
    }

    private IllegalArgumentException error(String what) {
        return new IllegalArgumentException("JSON " + what + " at offset " + pos);
    }

    public static String quote(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') sb.append('\\').append(c);
            else if (c < 0x20) sb.append(String.format("\\u%04x", (int) c));
            else sb.append(c);
        }
        return sb.append('"').toString();
    }
}
