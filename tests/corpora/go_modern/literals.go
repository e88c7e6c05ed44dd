package literals

import "math"

const (
	KB = 1 << (10 * (iota + 1))
	MB
	GB
)

type Weekday int

const (
	Sunday Weekday = iota
	Monday
	Tuesday
	_
	Thursday
)

const (
	big       = 1_000_000
	hex       = 0xDEAD_BEEF
	upperHex  = 0XFF
	octal     = 0o755
	oldOctal  = 0644
	binary    = 0b1010_1010
	float1    = 3.14159
	float2    = 1e9
	float3    = .5
	float4    = 6.022_140_76e23
	float5    = 1.
	float6    = 0x1p-2
	float7    = 0x1.8p+3
	imag1     = 2i
	imag2     = 1.5e3i
	imag3     = 0x10i
	imag4     = 0123i
	zero      = 0
	tiny      = 1E-300
	maxUint64 = math.MaxUint64
)

var runes = []rune{'a', 'ä', '本', '\t', '\000', '\x07', '\xff', '\u12e4', '\U00101234', '\'', '\\', '"'}

var strs = []string{
	"",
	"hello, world\n",
	"日本語",
	"\u65e5本\U00008a9e",
	"\xff\u00FF",
	"quote \" and backslash \\",
	"octal \101\102",
}

const usage = `Usage: tool [flags] <file>...

Flags:
	-v	verbose output
	-o	output file ("-" for stdout)
Raw strings keep \n and \t as written, and "quotes".`

var pattern = `^\d{3}-\d{4}$`

var c = complex(1.5, -2) + 3i

var shifts = []uint{1 << 3, 1 >> 1, 0xF0 &^ 0x30, 7 & 3, 7 | 8, 7 ^ 2, ^0}

var mixed = struct {
	a, b int
	s    string
}{a: 1, b: -2, s: "x"}

/* A block comment
   spanning lines. */
var afterComment = true /* inline */ && !false

var ptr = &mixed.a

func Bits(x uint64) (n int) {
	for x != 0 {
		x &= x - 1
		n++
	}
	return
}

func Ops(a, b int) (r []int) {
	r = append(r, a+b, a-b, a*b, a/b, a%b, a<<2, a>>1, a&b, a|b, a^b, a&^b, -a, +b, ^a)
	ok := a == b || a != b && a < b || a <= b && !(a > b) || a >= b
	if ok {
		a += 1
		a -= 2
		a *= 3
		a /= 4
		a %= 5
		a <<= 1
		a >>= 1
		a &= 0xff
		a |= 1
		a ^= 2
		a &^= 4
		a++
		b--
	}
	return
}
