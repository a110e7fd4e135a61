package web

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// sdkDir is the vendored Embedded App SDK: npm @discord/embedded-app-sdk
// 2.5.0 (integrity sha512-FNoe5PbSkoKEbqPubaBmq6tlEMOftMjR3gu55YrdrrKmBfKKM4i9P/Z+Zxl0RZdJcKviBwVcTyYMMPM/aGex/w==,
// tarball sha256 9fea2ebe36dfd1126ad072ba343128db4143043c5b6a1f9bc212a0e3a7198470),
// its output/**/*.mjs and LICENSE.md, unmodified.
const sdkDir = "sdk/discord-embedded-app-sdk@2.5.0"

// sdkManifest pins the sha256 of every vendored file, as npm pack gave it.
var sdkManifest = map[string]string{
	"Constants.mjs":                                         "f9d3072e159ac457724fb36c3603b526c0931384e9288332e6139fd99311c881",
	"Discord.mjs":                                           "c5a820a9e2b9b828b3fa1681b4a3a0811c2917c2fa8a2a0095e8c58f47c4ba5f",
	"LICENSE.md":                                            "ac69ea236ff3ba795e1873f4641b73f99492cf47ed9e0804ee4cf8285dd45b9d",
	"_virtual/BigInteger.mjs":                               "24affd929a625697d0bb0a4384bae9106c24b410d25f67edd5b8df8a7e7a4491",
	"_virtual/BigInteger2.mjs":                              "2edfde161a9922899ca62192ad38592f9835dbb13830433ac8ea43f43d9b4257",
	"_virtual/_commonjsHelpers.mjs":                         "e740c9ac87583add28ed501cffc6d5cae69fc468625a653cc1b8932b16b807c4",
	"_virtual/index.mjs":                                    "3aeb163ccff5f2acf61b26ad7bf66bdd1826c22eeb66590551268810742e25ed",
	"_virtual/index2.mjs":                                   "b717c0a855e626fc5d9d7d7cce24042279702d1be03e911c8ccc45360813af46",
	"_virtual/index3.mjs":                                   "437535a5ab9dbac78409346b686d28908dc8a9e6b9945816ffa5e1f324eafdcd",
	"_virtual/index4.mjs":                                   "d9127b9a71c4bd8578c152593215489790470f7f48cf097ee72cc85217c7f3a9",
	"commands/authenticate.mjs":                             "392168dcc158638c98d7862b6d14a1f34d414867c1e4753903f106906cc4f5e3",
	"commands/authorize.mjs":                                "fa6a517135c0225ee4874cdc412f08d97a8de853354631afe994010878c0eae1",
	"commands/captureLog.mjs":                               "9c677ba158cd328be3b78f95c859964ea035f085670ab5c19db533b1c91306f6",
	"commands/encourageHardwareAcceleration.mjs":            "4ceee82e1a33d4bc3d8a6e63e4540d98e0c55b7163788968f72593a350726ccd",
	"commands/getActivityInstanceConnectedParticipants.mjs": "d68f98912b71884c7d167bf69215ab84c5ff35ca38527e627f00158f12f03ea6",
	"commands/getChannel.mjs":                               "11da47aef283918afc71ace8492ecd314f7ed96b0abba3025e720e2c58a45d42",
	"commands/getChannelPermissions.mjs":                    "85aa305a017ca8160706fb942747488a0e3f32d70282779a2a1e56e65f85f022",
	"commands/getEntitlements.mjs":                          "ab73d41e26f41d5963b00fdc7d149c69e4f0f1758fb57bab770939d800bf36e6",
	"commands/getPlatformBehaviors.mjs":                     "7706323c99ad880149115a1c3918b992fc88e61c144da833ce071e568f99d33b",
	"commands/getQuest.mjs":                                 "c31bdfe722cf74dfaa5651198b80cbfe09880329ac7569e40479f1d9e55a2dc2",
	"commands/getQuestEnrollmentStatus.mjs":                 "df654ea256e3e9b73d5dce53296c779b353d594d00699596cc7a9ad08908b81c",
	"commands/getRelationships.mjs":                         "bc326bb5e627301c0c1f62ff31b71975f1b77a41c60d72734a621afc9f154e1b",
	"commands/getSkus.mjs":                                  "faa5acbf17e8fc191f08b2549414c2c650f0b7b6504750ff68368787a96cb5a7",
	"commands/getUser.mjs":                                  "95500b2085fb865f04c728a1a7f3cf589f1411cd06ab97882f72c28b15cd7893",
	"commands/index.mjs":                                    "3a1af67c13f78f64fd2525d5ef7a9a4f8e847138260e44e6a8b12c6942dcb964",
	"commands/initiateImageUpload.mjs":                      "984641be191fd89e18420a805faf431ea7fc356274277478cc49486ddd92f84a",
	"commands/inviteUserEmbedded.mjs":                       "aff66fcc710f074c0fe18b25ec1adefeac92317d5e3a5c7d89ff53d7295e1a3f",
	"commands/openExternalLink.mjs":                         "15677e4bd66a5f2fd456318b6795a78651cea75d0f14b26330f29f91b590f9f7",
	"commands/openInviteDialog.mjs":                         "ff24ae496bb6c10b473a60339737d90c0ce6f781472684a9850fd221d848bc68",
	"commands/openShareMomentDialog.mjs":                    "cd27cd810070a3c168377b8cc1a35390388ae8dbbf7b63ec6a0f28a5f04b77cc",
	"commands/questStartTimer.mjs":                          "97399d735ad2a7a75f7f2a364ceebfa040f58f0f439049c864a38683ae948a5d",
	"commands/requestProxyTicketRefresh.mjs":                "9315761cfb47c032f60095e4668211e232ebe64da1798f9fc89dd0d1e7ffe4bf",
	"commands/setActivity.mjs":                              "f94672c9a7ec144cdb8c2aa8bb29201608d6e4a892f9ae25d032df5dbf29a6f8",
	"commands/setConfig.mjs":                                "914c4627b7536edadfadcfbd87b734d49ac6b97a5c9890113257b7b2b46aec9c",
	"commands/setOrientationLockState.mjs":                  "ecbd7c26f800f2417d40dd7c2463efb327ed6d2f0c7c572f1561214cb85a5026",
	"commands/shareInteraction.mjs":                         "77029b4b3c8942326cae4f7450c0f2da58515da31eea9fa9c38adc4989cee46e",
	"commands/shareLink.mjs":                                "03dad1c7b5d147555c76ce1b9ab848d34b1dc10e356ac1ca9ce54890e5034425",
	"commands/startPurchase.mjs":                            "dedf364ce6fd7a1d5ba2d10677603b0c47da5b3dcb5b95dca3ec9b486015d6f0",
	"commands/userSettingsGetLocale.mjs":                    "26fbc4d19fe232bb5c0ca59a7eff176e61f057d2bbdf8e9923fd9312dd19a6ef",
	"error.mjs":                                             "fac9819a797cbc0ed3fd2c93dd77fd2da51176b65b2f1bddd0e6b871c89f4f01",
	"generated/schemas.mjs":                                 "f52b8acc60788565a541b2cfb8d915fb6a00043b175e43b9fae4e012a528cb5d",
	"index.mjs":                                             "642e2741d8d462eea17ad5bfeb9a67e9db8ab930a887a33ea41fc55924b522e5",
	"lib/big-integer/BigInteger.mjs":                        "f41d8e2ab5aa9063c063bc5ea1e4a44c5caa3b821d0008d6bce0be236c6a99fe",
	"lib/decimal.js-light/decimal.mjs":                      "cbdffa018b7368802efc62583760ed21519e06fee412f2377d58d2c072b9e530",
	"lib/eventemitter3/index.mjs":                           "71904a543fbf8f449e86a039b420219e99860477808b6fa527c74a9b0668f53d",
	"lib/eventemitter3/index2.mjs":                          "c87ca22b2a0438df4f044f3460c68e396545e9ff7a0c5cd9882ea9b46d566967",
	"lib/lodash.transform/index.mjs":                        "66ca5c84fffa3ac8fd158cff1ee3aa5d94b04fe7b17d00ce0c890417317a585f",
	"lib/tslib/tslib.es6.mjs":                               "48fc66eb6ffedc132bc001fce7d076b5f9bb067e4f162eac9929a105ae13e137",
	"lib/uuid/dist/esm-browser/native.mjs":                  "9af14ccfc1e61a71341ce449a74bc940c64f762c18ea8fedd39efefe341780cf",
	"lib/uuid/dist/esm-browser/rng.mjs":                     "cc882db5cad844488459471f179f97bbc49c975abc51067c7e26edc7822664c7",
	"lib/uuid/dist/esm-browser/stringify.mjs":               "3c55ff9dd9249dcefd6ea07069327c71a9cfa89f7ca8917fe73c6ce759dc77d7",
	"lib/uuid/dist/esm-browser/v4.mjs":                      "e5bde84a0c212d9c3bef4012d58909cb27270f9ef7751ef8e90a707282502fd7",
	"lib/zod/lib/index.mjs":                                 "3030e5b032805870bb4a8674e36fd916885552832e52c6a0f2465a929ecec231",
	"mock.mjs":                                              "13e374452a902373e385b023f4264f91d591999da3f705e1685c6f602e242396",
	"package.json.mjs":                                      "ab0b9e8eec8236521af4254c0ae8c2462840564172c2c6b00a4e839bbe8cdd83",
	"schema/common.mjs":                                     "3e7034222a4058456f88ea49947b88a702acde364eef9399e9cb9e73739d55f9",
	"schema/events.mjs":                                     "5265c1d5b67430c1899aa1e4542fc3dea8b0008cb9a67a8a09a764615e6131a8",
	"schema/index.mjs":                                      "47adb59be426503b267eb572ce3880b807bc399fc8bf2dd584e60a1e58e32b8d",
	"schema/responses.mjs":                                  "9e4fdba68722d6cb763a58408745b133a0676023684dc474b2900654f16ee4e3",
	"utils/BigFlagUtils.mjs":                                "9a309dac29670fa0a32b1dfe4d25c57a03f27b91a3af084b8c11d90133af5c43",
	"utils/PermissionUtils.mjs":                             "d25ab2008d5e84f93969107a8f31edd7085aafc47761e257b89bae023f652800",
	"utils/PriceConstants.mjs":                              "73088a17c41bfb0765c5bd8b576bbc83513c11d1c834cc8da0a28cd4868c239e",
	"utils/PriceUtils.mjs":                                  "8202e37614afe000ae75c6ece6c6771841023f44673fabc4fdac9d7bc42643e3",
	"utils/assertUnreachable.mjs":                           "d2b492c1cc962817fdc68103bb79d2f041de6ad2d2d5bdabf4bab888cbce1121",
	"utils/commandFactory.mjs":                              "eb2b5f44cb247e3ced8509a7ce9fe3fde91aaa6dd5c49377efa3f94087a49fe6",
	"utils/compatCommandFactory.mjs":                        "0079f9110e24cdf47260991ca8032f7ffae039497c712fe6595aed1d36de9d83",
	"utils/console.mjs":                                     "44f846c58c354296bf3e2e7d2f1e3f0b5fbea69e986bd4809abfee43dfccad12",
	"utils/getDefaultSdkConfiguration.mjs":                  "268687c8a7ff678d577e4698ba1c6c8fea1bf5c15e3aec7580873277ac64663d",
	"utils/patchUrlMappings.mjs":                            "18a66e0bf6e7dbbfa50bf61c5657ad367238b51372b9b99e65c94ebd66fe2903",
	"utils/url.mjs":                                         "0865df06e3742aa4cf7092f95c7a1519c09ddd45126f8af9bf6afaaa3aee7038",
	"utils/zodUtils.mjs":                                    "ee5a039abb94c7d6da4289e2a363fd8496110c3f9e3dbd710306bfa091d66214",
}

// TestVendoredSDKIsUnmodified: every file of the SDK is there, embedded and
// served as npm published it, and nothing else is in its directory.
func TestVendoredSDKIsUnmodified(t *testing.T) {
	seen := 0
	err := fs.WalkDir(static, sdkDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		name := strings.TrimPrefix(p, sdkDir+"/")
		data, err := fs.ReadFile(static, p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(data)
		want, ok := sdkManifest[name]
		switch {
		case !ok:
			t.Errorf("%s is not in the SDK's manifest", name)
		case hex.EncodeToString(sum[:]) != want:
			t.Errorf("%s differs from the published SDK", name)
		}
		seen++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if seen != len(sdkManifest) {
		t.Errorf("%d files vendored, the manifest lists %d (the embed may miss the _virtual files: go:embed all:)", seen, len(sdkManifest))
	}
	if _, err := fs.Stat(static, sdkDir+"/_virtual/index.mjs"); err != nil {
		t.Error("the SDK's _virtual/ modules are not embedded")
	}
}

// TestFrameAncestorsAreTheSDKsOrigins: the Discord clients allowed to frame
// the Activity's page are the https origins the vendored SDK accepts
// messages from, no more and no fewer; an SDK update that changes its list
// fails here.
func TestFrameAncestorsAreTheSDKsOrigins(t *testing.T) {
	src, err := fs.ReadFile(static, sdkDir+"/Discord.mjs")
	if err != nil {
		t.Fatal(err)
	}
	body := regexp.MustCompile(`(?s)function getAllowedOrigins\(\) \{.*?return \[([^\]]+)\];`).FindSubmatch(src)
	if body == nil {
		t.Fatal("the SDK has no getAllowedOrigins list any more")
	}
	var sdk []string
	for _, m := range regexp.MustCompile(`'([^']*)'`).FindAllSubmatch(body[1], -1) {
		if o := string(m[1]); strings.HasPrefix(o, "https://") {
			sdk = append(sdk, o)
		}
	}
	if len(sdk) < 5 || !slices.Equal(sdk, discordOrigins) {
		t.Errorf("the SDK accepts %v; the page may be framed by %v", sdk, discordOrigins)
	}
}
