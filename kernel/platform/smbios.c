// SPDX-License-Identifier: GPL-2.0-only
/*
 * smbios.c - SMBIOS entry point and structure table to the DIMM map (smbios.h). Field
 * offsets are DSP0134's: each structure is a 4-byte header (type, length of the formatted
 * area, handle), the formatted area, then its strings, each NUL-terminated, the set ended
 * by one more NUL (two NULs when there are none).
 */
#include "kernel/include/unaligned.h"
#include "kernel/lib/format.h"
#include "kernel/lib/string.h"
#include "kernel/platform/smbios.h"

/* Entry points. */
#define EP2_LEN_MIN		0x1e	/* 2.1 said 0x1e and meant 0x1f: accept both */
#define EP2_INTERMEDIATE	0x10	/* "_DMI_", checksummed over 15 bytes */
#define EP3_LEN_MIN		0x18

/* Formatted-area offsets and the lengths that hold them. */
/* Type 2 (baseboard) fields. */
#define T2_MANUFACTURER	0x04
#define T2_PRODUCT	0x05
#define T2_LEN_MIN	0x08

#define T17_ARRAY	0x04
#define T17_SIZE	0x0c
#define T17_LOCATOR	0x10
#define T17_BANK	0x11
#define T17_LEN_MIN	0x15	/* 2.1 */
#define T17_EXT_SIZE	0x1c
#define T17_LEN_EXT	0x20	/* 2.7: extended size */
#define T17_SIZE_EXT	0x7fff
#define T17_SIZE_UNKNOWN 0xffff
#define T17_SIZE_KB	BIT(15)

#define T19_START	0x04
#define T19_END		0x08
#define T19_ARRAY	0x0c
#define T19_LEN_MIN	0x0f
#define T19_EXT_START	0x0f
#define T19_EXT_END	0x17
#define T19_LEN_EXT	0x1f

#define T20_START	0x04
#define T20_END		0x08
#define T20_DEVICE	0x0c
#define T20_INTERLEAVE	0x11
#define T20_DEPTH	0x12
#define T20_LEN_MIN	0x13
#define T20_EXT_START	0x13
#define T20_EXT_END	0x1b
#define T20_LEN_EXT	0x23

#define ADDR_EXTENDED	0xffffffffU

static u16 le16(const u8 *p)
{
	return (u16)(p[0] | p[1] << 8);
}

static bool sums_to_zero(const u8 *p, size_t n)
{
	u8 sum = 0;

	for (size_t i = 0; i < n; i++)
		sum = (u8)(sum + p[i]);
	return sum == 0;
}

int smbios_parse_entry(const void *ptr, size_t len, struct smbios_entry *e, const char **why)
{
	const u8 *p = ptr;

	memset(e, 0, sizeof(*e));
	if (len >= EP3_LEN_MIN && !memcmp(p, "_SM3_", 5)) {
		if (p[6] < EP3_LEN_MIN || p[6] > len)
			*why = "SMBIOS 3 entry point: length field out of range";
		else if (!sums_to_zero(p, p[6]))
			*why = "SMBIOS 3 entry point: bad checksum";
		else {
			e->v3 = true;
			e->major = p[7];
			e->minor = p[8];
			e->table_len = get_le32(p + 0x0c);
			e->table_addr = get_le64(p + 0x10);
			return 0;
		}
		return -1;
	}
	if (len >= EP2_LEN_MIN && !memcmp(p, "_SM_", 4)) {
		if (p[5] < EP2_LEN_MIN || p[5] > len)
			*why = "SMBIOS entry point: length field out of range";
		else if (!sums_to_zero(p, p[5]))
			*why = "SMBIOS entry point: bad checksum";
		else if (memcmp(p + EP2_INTERMEDIATE, "_DMI_", 5) ||
			 !sums_to_zero(p + EP2_INTERMEDIATE, 15))
			*why = "SMBIOS entry point: bad _DMI_ intermediate anchor or checksum";
		else {
			e->major = p[6];
			e->minor = p[7];
			e->table_len = le16(p + 0x16);
			e->table_addr = get_le32(p + 0x18);
			e->nr_structs = le16(p + 0x1c);
			return 0;
		}
		return -1;
	}
	*why = "no SMBIOS entry point anchor (_SM_ or _SM3_)";
	return -1;
}

static void note(struct smbios_dimms *d, const char *what, u64 value)
{
	d->nr_noted++;
	if (d->nr_notes < SMBIOS_MAX_NOTES)
		d->note[d->nr_notes++] = (struct smbios_note){ what, value };
}

/* One structure as the walk found it. */
struct st {
	const u8 *p;		/* the header */
	u8 type, len;
	u16 handle;
	const u8 *strings;	/* the first string */
	unsigned int nr_strings;
};

/* String number @n (1-based) of @s into @buf; 0 is "no string". False when it is missing. */
static bool string_of(const struct st *s, u8 n, char *buf, size_t size)
{
	const char *q = (const char *)s->strings;
	size_t i = 0;

	buf[0] = '\0';
	if (!n)
		return true;
	if (n > s->nr_strings)
		return false;
	while (--n)
		q += strlen(q) + 1;
	/* copy printable ASCII only: the name goes into logs and JSON */
	for (; *q && i + 1 < size; q++)
		buf[i++] = (*q >= 0x20 && *q < 0x7f) ? *q : '?';
	buf[i] = '\0';
	return true;
}

/* The first baseboard (type 2, DSP0134 7.3): its Manufacturer and Product strings. */
static void take_board(struct smbios_dimms *d, const struct st *s)
{
	if (d->have_board)
		return;
	if (s->len < T2_LEN_MIN) {
		note(d, "SMBIOS type 2: too short, skipped (handle)", s->handle);
		return;
	}
	if (!string_of(s, s->p[T2_MANUFACTURER], d->board_vendor, sizeof(d->board_vendor)) ||
	    !string_of(s, s->p[T2_PRODUCT], d->board_product, sizeof(d->board_product))) {
		note(d, "SMBIOS type 2: a name string is missing (handle)", s->handle);
		return;
	}
	d->have_board = true;
}

static void take_device(struct smbios_dimms *d, const struct st *s)
{
	struct smbios_device *dev;
	u16 size;

	if (s->len < T17_LEN_MIN) {
		note(d, "SMBIOS type 17: too short, skipped (handle)", s->handle);
		return;
	}
	if (d->nr_devices == SMBIOS_MAX_DEVICES) {
		note(d, "SMBIOS type 17: more devices than kept, skipped (handle)", s->handle);
		return;
	}
	dev = &d->devices[d->nr_devices++];
	dev->handle = s->handle;
	dev->array = le16(s->p + T17_ARRAY);
	size = le16(s->p + T17_SIZE);
	dev->size_kind = SMBIOS_SIZE_KNOWN;
	if (size == 0) {
		dev->size_kind = SMBIOS_SIZE_EMPTY;
	} else if (size == T17_SIZE_UNKNOWN) {
		dev->size_kind = SMBIOS_SIZE_UNKNOWN;
	} else if (size == T17_SIZE_EXT) {
		if (s->len >= T17_LEN_EXT)
			dev->size = (u64)(get_le32(s->p + T17_EXT_SIZE) & 0x7fffffffU) << 20;
		else
			dev->size_kind = SMBIOS_SIZE_UNKNOWN;
	} else {
		dev->size = (size & T17_SIZE_KB) ? (u64)(size & ~T17_SIZE_KB) << 10
						 : (u64)size << 20;
	}
	if (!string_of(s, s->p[T17_LOCATOR], dev->locator, sizeof(dev->locator)) ||
	    !string_of(s, s->p[T17_BANK], dev->bank, sizeof(dev->bank)))
		note(d, "SMBIOS type 17: a locator string is missing (handle)", s->handle);
	if (!dev->locator[0])
		ck_snprintf(dev->locator, sizeof(dev->locator), "handle 0x%04x", dev->handle);
}

/*
 * A type 19 or 20 range: KiB addresses (the end is the last KiB), or with both 0xffffffff
 * the extended byte addresses (the end is the last byte). False when unusable.
 */
static bool take_range(struct smbios_dimms *d, const struct st *s, unsigned int ext_len,
		       unsigned int ext_start, struct smbios_range *r)
{
	u32 start = get_le32(s->p + 4), end = get_le32(s->p + 8);

	if (start == ADDR_EXTENDED) {
		if (s->len < ext_len) {
			note(d, "SMBIOS range: extended address but no room for it (handle)",
			     s->handle);
			return false;
		}
		r->start = get_le64(s->p + ext_start);
		r->end = get_le64(s->p + ext_start + 8);
		if (r->end < r->start || r->end == ~0ULL) {
			note(d, "SMBIOS range: ends before it starts (handle)", s->handle);
			return false;
		}
		r->end++;
	} else {
		if (end < start) {
			note(d, "SMBIOS range: ends before it starts (handle)", s->handle);
			return false;
		}
		r->start = (u64)start << 10;
		r->end = ((u64)end + 1) << 10;
	}
	r->handle = s->handle;
	return true;
}

static void take_array(struct smbios_dimms *d, const struct st *s)
{
	struct smbios_range r = { 0 };

	if (s->len < T19_LEN_MIN) {
		note(d, "SMBIOS type 19: too short, skipped (handle)", s->handle);
		return;
	}
	if (!take_range(d, s, T19_LEN_EXT, T19_EXT_START, &r))
		return;
	if (d->nr_arrays == SMBIOS_MAX_ARRAYS) {
		note(d, "SMBIOS type 19: more ranges than kept, skipped (handle)", s->handle);
		return;
	}
	r.ref = le16(s->p + T19_ARRAY);
	d->arrays[d->nr_arrays++] = r;
}

/* Type 20 ranges are kept first and tied to their devices after the walk. */
static void take_map(struct smbios_dimms *d, const struct st *s)
{
	struct smbios_range r = { 0 };

	if (s->len < T20_LEN_MIN) {
		note(d, "SMBIOS type 20: too short, skipped (handle)", s->handle);
		return;
	}
	if (!take_range(d, s, T20_LEN_EXT, T20_EXT_START, &r))
		return;
	if (d->nr_maps == SMBIOS_MAX_MAPS) {
		note(d, "SMBIOS type 20: more ranges than kept, skipped (handle)", s->handle);
		return;
	}
	r.ref = le16(s->p + T20_DEVICE);
	r.interleave_pos = s->p[T20_INTERLEAVE];
	r.depth = s->p[T20_DEPTH];
	d->maps[d->nr_maps++] = r;
}

/* The structure at @off: its header, strings and the offset after it; NULL or why not. */
static const char *next_struct(const u8 *p, size_t len, size_t off, struct st *s, size_t *next)
{
	size_t i;

	if (len - off < 4)
		return "SMBIOS: a structure header runs past the table's end (offset)";
	s->p = p + off;
	s->type = p[off];
	s->len = p[off + 1];
	s->handle = le16(p + off + 2);
	if (s->len < 4)
		return "SMBIOS: a structure's length is under 4 (offset)";
	if (s->len > len - off)
		return "SMBIOS: a structure's formatted area runs past the table's end (offset)";
	i = off + s->len;
	s->strings = p + i;
	s->nr_strings = 0;
	if (len - i >= 2 && p[i] == 0 && p[i + 1] == 0) {
		*next = i + 2;
		return NULL;
	}
	for (;;) {
		while (i < len && p[i])
			i++;
		if (i >= len)
			return "SMBIOS: a structure's strings do not end inside the table (offset)";
		s->nr_strings++;
		i++;
		if (i >= len)
			return "SMBIOS: a structure's string set is not terminated (offset)";
		if (!p[i]) {
			*next = i + 1;
			return NULL;
		}
	}
}

/* Tie every type 20 range to its type 17 device; drop those that name none. */
static void link_maps(struct smbios_dimms *d)
{
	unsigned int kept = 0;

	for (unsigned int i = 0; i < d->nr_maps; i++) {
		struct smbios_range r = d->maps[i];
		unsigned int j;

		for (j = 0; j < d->nr_devices && d->devices[j].handle != r.ref; j++)
			;
		if (j == d->nr_devices) {
			note(d, "SMBIOS type 20: names no memory device, skipped (handle)",
			     r.handle);
			continue;
		}
		r.device = (u16)j;
		d->maps[kept++] = r;
	}
	d->nr_maps = kept;
}

/* Whether @h was seen before in this table (and mark it). */
static bool handle_seen(struct smbios_dimms *d, u16 h)
{
	u8 bit = (u8)(1u << (h & 7));
	bool seen = d->handles_seen[h >> 3] & bit;

	d->handles_seen[h >> 3] |= bit;
	return seen;
}

int smbios_parse(const void *ptr, size_t len, struct smbios_dimms *d, const char **why,
		 u64 *why_value)
{
	const u8 *p = ptr;
	size_t off = 0, next;

	memset(d, 0, sizeof(*d));
	while (off < len) {
		struct st s;

		*why = next_struct(p, len, off, &s, &next);
		*why_value = off;
		if (*why)
			return -1;
		if (++d->nr_structs > SMBIOS_MAX_STRUCTS) {
			*why = "SMBIOS: more structures than a table can sensibly hold (limit)";
			*why_value = SMBIOS_MAX_STRUCTS;
			return -1;
		}
		if (s.type == SMBIOS_TYPE_END)
			break;
		if (handle_seen(d, s.handle)) {
			*why = "SMBIOS: two structures have one handle (handle)";
			*why_value = s.handle;
			return -1;
		}
		if (s.type == SMBIOS_TYPE_BASEBOARD)
			take_board(d, &s);
		else if (s.type == SMBIOS_TYPE_MEMORY_DEVICE)
			take_device(d, &s);
		else if (s.type == SMBIOS_TYPE_ARRAY_MAPPED)
			take_array(d, &s);
		else if (s.type == SMBIOS_TYPE_DEVICE_MAPPED)
			take_map(d, &s);
		off = next;
	}
	link_maps(d);
	*why = NULL;
	return 0;
}

enum smbios_where smbios_dimm_of(const struct smbios_dimms *d, u64 pa, u16 *idx,
				 unsigned int max, unsigned int *n)
{
	*n = 0;
	if (!d || !d->nr_maps)
		return SMBIOS_NO_MAP;
	for (unsigned int i = 0; i < d->nr_maps; i++) {
		const struct smbios_range *r = &d->maps[i];
		bool dup = false;

		if (pa < r->start || pa >= r->end)
			continue;
		/* a device listed once, however many of its ranges hold the address */
		for (unsigned int j = 0; j < *n && j < max; j++)
			dup |= idx[j] == r->device;
		if (dup)
			continue;
		if (*n < max)
			idx[*n] = r->device;
		(*n)++;
	}
	if (!*n)
		return SMBIOS_UNMAPPED;
	return *n == 1 ? SMBIOS_ONE_DIMM : SMBIOS_INTERLEAVED;
}

void smbios_dimm_name(const struct smbios_dimms *d, unsigned int idx, char *buf, size_t size)
{
	const struct smbios_device *dev;

	if (!d || idx >= d->nr_devices) {
		ck_snprintf(buf, size, "?");
		return;
	}
	dev = &d->devices[idx];
	if (dev->bank[0])
		ck_snprintf(buf, size, "%s/%s", dev->bank, dev->locator);
	else
		ck_snprintf(buf, size, "%s", dev->locator);
}

const char *smbios_where_text(enum smbios_where w)
{
	switch (w) {
	case SMBIOS_NO_MAP:
		return "no DIMM map from firmware";
	case SMBIOS_UNMAPPED:
		return "in no DIMM range of the firmware's map";
	case SMBIOS_INTERLEAVED:
		return "interleaved over several DIMMs";
	default:
		return "one DIMM";
	}
}
