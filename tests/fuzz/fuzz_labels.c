// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_labels.c - libFuzzer target for the rasdaemon labels parser (mce/dimm_labels.c). The
 * input is the file; the board asked for is "V"/"M". Properties: a refusal names a line
 * within the file and says why, and keeps nothing; a parse keeps at most the table's size,
 * every label non-empty, NUL-terminated and shorter than DIMM_LABEL_LEN, and the lookup of
 * every kept location answers with a label.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mce/dimm_labels.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct dimm_labels db;
	size_t lines = 1;

	for (size_t i = 0; i < size; i++)
		lines += data[i] == '\n';
	if (dimm_labels_parse(&db, (const char *)data, size, "V", "M")) {
		if (!db.bad_line || db.bad_line > lines || !db.error || !db.error[0] || db.n ||
		    db.board_found)
			abort();
		return 0;
	}
	if (db.error || db.bad_line || db.n > DIMM_LABELS_MAX || (db.n && !db.board_found))
		abort();
	for (unsigned int i = 0; i < db.n; i++) {
		size_t n = strnlen(db.e[i].name, DIMM_LABEL_LEN);

		if (!n || n >= DIMM_LABEL_LEN ||
		    !dimm_labels_find(&db, db.e[i].mc, db.e[i].row, db.e[i].ch))
			abort();
	}
	return 0;
}
