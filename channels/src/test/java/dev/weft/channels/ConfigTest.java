package dev.weft.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The tuning properties: defaults, values, and clear errors for bad ones ({@link Config}). */
class ConfigTest {
    private static final String NAME = "weft.test.configTest";

    @Test
    void unsetGivesTheDefaultAndAValueInRangeIsTaken() {
        System.clearProperty(NAME);
        assertEquals(7, Config.intProperty(NAME, 7, 0, 10));
        System.setProperty(NAME, " 10 ");
        try {
            assertEquals(10, Config.intProperty(NAME, 7, 0, 10));
        } finally {
            System.clearProperty(NAME);
        }
    }

    @Test
    void aMalformedOrOutOfRangeValueIsAnErrorThatNamesTheProperty() {
        for (String bad : new String[] {"fifty", "11", "-1", ""}) {
            System.setProperty(NAME, bad);
            try {
                IllegalArgumentException e =
                        assertThrows(IllegalArgumentException.class, () -> Config.intProperty(NAME, 7, 0, 10));
                assertTrue(e.getMessage().startsWith(NAME + " must be an integer in 0..10, was"), e.getMessage());
            } finally {
                System.clearProperty(NAME);
            }
        }
    }
}
