package io.troupe.reliability.fuzz;

import java.io.IOException;
import java.io.StringReader;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;

/**
 * A {@code .cfg} file as a configuration component receives it: the text parsed as a properties file (what
 * FileInstall does with {@code etc/*.cfg} before ConfigAdmin hands the map on), every value a string, except
 * that the fuzzer may turn a value that reads as a number into an {@code Integer} or {@code Long}, as a
 * configuration made through ConfigAdmin's API may hold.
 *
 * <p><b>Threading:</b> stateless; any thread.
 */
public final class CfgFile {

    private CfgFile() {
    }

    /**
     * The properties of a cfg file: a byte telling which values become numbers, then the file's text.
     *
     * @return the properties in file order, or {@code null} when the text is not a properties file at all
     *         (a malformed {@code \\uXXXX} escape): FileInstall would not hand that file to anyone
     */
    public static Map<String, Object> properties(FuzzedDataProvider data) {
        int numbers = data.consumeInt(0, 2);
        Properties parsed = new Properties();
        try {
            parsed.load(new StringReader(data.consumeRemainingAsString()));
        } catch (IOException | IllegalArgumentException e) {
            return null;
        }
        Map<String, Object> properties = new LinkedHashMap<>();
        for (String key : parsed.stringPropertyNames()) {
            properties.put(key, typed(parsed.getProperty(key), numbers));
        }
        return properties;
    }

    private static Object typed(String value, int numbers) {
        if (numbers == 0) {
            return value;
        }
        try {
            return numbers == 1 ? (Object) Integer.valueOf(value.strip()) : (Object) Long.valueOf(value.strip());
        } catch (NumberFormatException e) {
            return value;
        }
    }
}
